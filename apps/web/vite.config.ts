import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { lingui } from '@lingui/vite-plugin';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { STORAGE_KEYS } from '../../packages/protocol/src/constants';
import { PAGE_SIZE } from './src/features/chat-room/lib/page-size';
import { EARLY_REQUESTS, startEarlyRequests } from './src/lib/http/early-requests';

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

/** The modules a room's route draws with (app/router.tsx): its layout and its frame (the room, its thread). */
const ROOM_ROUTE_MODULES = ['/src/app/chats-layout.tsx', '/src/app/room-frame.tsx'];

/**
 * An inline script in index.html that, on a room's address, starts the room's code and its first requests
 * while the app's first script is still on its way (src/lib/http/early-requests.ts). The code is the chunks of the
 * room's route modules with what they import, less what the first script brings itself.
 */
function earlyRoomRequests(): Plugin {
  let apiBase = '/api';
  return {
    name: 'parley-early-room-requests',
    apply: 'build',
    configResolved(config) {
      apiBase = (config.env.VITE_API_URL || '/api').replace(/\/+$/, '');
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        if (!bundle) return html;
        const chunks = new Map(
          Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])),
        );
        const withImports = (files: string[], into = new Set<string>()) => {
          for (const file of files) {
            if (into.has(file)) continue;
            into.add(file);
            withImports(chunks.get(file)?.imports ?? [], into);
          }
          return into;
        };
        const first = withImports([...chunks.values()].filter((c) => c.isEntry).map((c) => c.fileName));
        // A route chunk that another lazy chunk imports from (the room's frame: its thread pane) may have no
        // facade module; it is the dynamic entry holding the route's module.
        const roots = [...chunks.values()]
          .filter((c) =>
            ROOM_ROUTE_MODULES.some(
              (m) =>
                c.facadeModuleId?.endsWith(m) ||
                (c.isDynamicEntry && c.moduleIds.some((id) => id.endsWith(m))),
            ),
          )
          .map((c) => c.fileName);
        if (roots.length !== ROOM_ROUTE_MODULES.length)
          throw new Error(`early room requests: found ${roots.length} of the room's route chunks`);
        const modules = [...withImports(roots)].filter((f) => !first.has(f)).map((f) => `/${f}`);
        const config = {
          apiBase,
          tokenKey: STORAGE_KEYS.token,
          pageSize: PAGE_SIZE,
          modules,
          windowKey: EARLY_REQUESTS,
        };
        // After the first script and its preloads, which come first, and before the stylesheet: an inline script
        // after a stylesheet waits for it to load before it runs.
        const script = `<script>(${startEarlyRequests.toString()})(${JSON.stringify(config)});</script>\n    `;
        const at = html.search(/<link rel="stylesheet"/);
        if (at < 0) throw new Error('early room requests: no place for the script in index.html');
        return html.slice(0, at) + script + html.slice(at);
      },
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
    // Compiles the reader's catalog (`{locale}.json?lingui`) as it is imported: no message parser in the app.
    lingui(),
    tailwindcss(),
    precompress(),
    pureProtocolSchemas(),
    earlyRoomRequests(),
    // Installable and offline: the manifest, and sw/sw.ts built with the list of every built file
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
      // zod ships `/* @__PURE__ */` comments where Rollup cannot use them; Rollup drops them and says so in two
      // alarming lines on every build. Harmless, and not ours to fix: kept quiet for node_modules only.
      onwarn(warning, warn) {
        if (warning.code === 'INVALID_ANNOTATION' && warning.id?.includes('/node_modules/')) return;
        warn(warning);
      },
      output: {
        // The libraries every screen runs on, in one chunk loaded with the entry (its modulepreload): with them
        // the icons and the small hooks the lazy screens share (each icon was a chunk of its own), so a room's
        // code comes in 8 files instead of 17 — on HTTP/1.1's six connections and a slow network the room's own
        // chunk and its data no longer queue behind a dozen files of a few hundred bytes.
        manualChunks: (id) => (VENDOR.test(id) ? 'vendor' : undefined),
      },
    },
  },
});
