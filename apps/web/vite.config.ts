import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// In development the API, sockets, dev outbox and media live on the server at :8000; the browser sees one origin.
const server = 'http://localhost:8000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: {
      '/api': server,
      '/ws': { target: server, ws: true },
      '/dev': server,
      '/media': server,
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      // The protocol package's modules only declare things, so a module whose exports go unused is dropped
      // (the zod payload schemas are the server's; keeping them would put zod in the first download).
      treeshake: { moduleSideEffects: (id) => !id.includes('/packages/protocol/') },
    },
  },
});
