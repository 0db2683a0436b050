import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

// In development the API, sockets, dev outbox and media live on the server at :8000; the browser sees one origin.
const server = 'http://localhost:8000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    // Installable and offline (issue 12): the manifest, and sw/sw.ts built with the list of every built file
    // to keep (Workbox's precache), registered by a small script the plugin adds to index.html.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      injectRegister: 'script-defer',
      registerType: 'autoUpdate',
      injectManifest: {
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}'],
        // The emoji data and other lazy chunks are small; none is worth leaving out of the offline shell.
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      manifest: {
        id: '/',
        name: 'Parley',
        short_name: 'Parley',
        description: 'Real-time chat, one-to-one and in groups.',
        start_url: '/chats',
        scope: '/',
        display: 'standalone',
        orientation: 'any',
        theme_color: '#4f46e5',
        background_color: '#f8fafc',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
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
