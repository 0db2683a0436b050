import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';

/**
 * Brotli and gzip copies of the built text files, beside them (the server sends one to a browser that accepts
 * it): the first download is about a third of the raw bytes, without compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'parley-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        const files = fs.readdirSync(outDir, { recursive: true, encoding: 'utf8' });
        for (const file of files) {
          if (!/\.(js|css|html|svg|webmanifest|json)$/.test(file)) continue;
          const full = path.join(outDir, file);
          const bytes = fs.readFileSync(full);
          if (bytes.length < 1024) continue;
          fs.writeFileSync(`${full}.br`, zlib.brotliCompressSync(bytes));
          fs.writeFileSync(`${full}.gz`, zlib.gzipSync(bytes, { level: 9 }));
        }
      },
    },
  };
}

/**
 * The protocol's zod schemas marked pure, so one the web never uses (a request body the server checks, say) is
 * dropped instead of built when its module loads: the room's first drawing then waits for no zod at all.
 */
function pureProtocolSchemas(): Plugin {
  return {
    name: 'parley-pure-protocol-schemas',
    apply: 'build',
    transform(code, id) {
      if (!id.includes('/packages/protocol/src/') || id.includes('.test.')) return null;
      return { code: code.replace(/(?<![\w$.])z\./g, '/* @__PURE__ */ z.'), map: null };
    },
  };
}

const VENDOR =
  /\/node_modules\/(react|react-dom|scheduler|react-router|@tanstack\/(query-core|react-query)|zustand|clsx|lucide-react|idb-keyval)\//;

// In development the API, sockets, dev outbox and media live on the server at :8000; the browser sees one origin.
const server = 'http://localhost:8000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    precompress(),
    pureProtocolSchemas(),
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
      output: {
        // The libraries every screen runs on, in one chunk loaded with the entry (its modulepreload): with them
        // the icons and the small hooks the lazy screens share (each icon was a chunk of its own), so a room's
        // code comes in 8 files instead of 17 — on HTTP/1.1's six connections and a slow network the room's own
        // chunk and its data no longer queue behind a dozen files of a few hundred bytes (issue 12).
        manualChunks: (id) => (VENDOR.test(id) ? 'vendor' : undefined),
      },
    },
  },
});
