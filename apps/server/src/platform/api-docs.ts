import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiSection } from './openapi';

// The published API: /api/openapi.json (the document, built once) and /api/docs/, Swagger UI served by Parley
// itself under its CSP: the page holds no inline script, its start-up is a file of its own (init.js), and the
// viewer's files come from the swagger-ui-dist package, gzipped once in memory for browsers that accept it.

const INIT_SCRIPT = `// Swagger UI's dark theme follows the system's, as Parley's own pages do.
var dark = window.matchMedia('(prefers-color-scheme: dark)');
function followTheme() {
  document.documentElement.classList.toggle('dark-mode', dark.matches);
}
followTheme();
dark.addEventListener('change', followTheme);

// What Swagger UI draws that a screen reader or a keyboard stumbles on, mended as it is drawn: a link inside an
// operation's button (a control inside a control), code blocks that scroll but cannot be reached by keyboard,
// the servers list without a name.
function mend(root) {
  root.querySelectorAll('.opblock-summary-control a[href]').forEach(function (link) {
    link.removeAttribute('href');
  });
  root.querySelectorAll('.highlight-code pre:not([tabindex]), .microlight:not([tabindex])').forEach(function (code) {
    code.setAttribute('tabindex', '0');
  });
  root.querySelectorAll('select#servers:not([aria-label])').forEach(function (select) {
    select.setAttribute('aria-label', 'Server');
  });
}
new MutationObserver(function () {
  mend(document);
}).observe(document.documentElement, { childList: true, subtree: true, attributes: true, attributeFilter: ['href'] });

window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    docExpansion: 'none',
    defaultModelsExpandDepth: 0,
    displayOperationId: false,
    validatorUrl: null,
    persistAuthorization: false,
  });
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Parley API</title>
    <link rel="stylesheet" href="./swagger-ui.css">
    <link rel="stylesheet" href="./docs.css">
  </head>
  <body>
    <main id="swagger-ui"></main>
    <script src="./swagger-ui-bundle.js"></script>
    <script src="./init.js"></script>
  </body>
</html>
`;

/**
 * A little room on narrow screens, and Swagger UI's colours darkened (lightened in the dark theme) where text on
 * them fell short of WCAG's 4.5:1: the methods' badges, the version stamps, links, the Authorize button, where
 * a parameter goes, an answer's headers in the dark, numbers in the examples (drawn with inline styles, hence `!important`).
 */
const PAGE_STYLE = `body { margin: 0; }
.swagger-ui .information-container { padding: 0 12px; }
@media (max-width: 480px) { .swagger-ui .wrapper { padding: 0 8px; } }
.swagger-ui .info .title small { background: #4f5664; }
.swagger-ui .info .title small.version-stamp { background: #3d5a00; }
.swagger-ui .info a, .swagger-ui .info .url { color: #1d5fb0; }
html.dark-mode .swagger-ui .info a, html.dark-mode .swagger-ui .info .url { color: #8cbcf5; }
.swagger-ui .btn.authorize { color: #166b42; border-color: #166b42; }
.swagger-ui .btn.authorize svg { color: #166b42; }
html.dark-mode .swagger-ui .btn.authorize { color: #6fdca6; border-color: #6fdca6; }
html.dark-mode .swagger-ui .btn.authorize svg { color: #6fdca6; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a5fa8; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #166b42; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8f4f00; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0c6b5a; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b21d1d; }
.swagger-ui .parameter__in { color: #595959; }
html.dark-mode .swagger-ui .parameter__in { color: #b0b0b0; }
html.dark-mode .swagger-ui .header-col { color: #e4e6e6; }
.swagger-ui .microlight span[style*="211, 99, 99"] { color: #ff9b9b !important; }
`;

interface Served {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

const served = (type: string, body: Buffer | string): Served => {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { type, body: bytes, gzipped: gzipSync(bytes) };
};

/** The viewer's files, read and compressed at their first request (most processes never serve them). */
function viewerFiles(): () => Map<string, Served> {
  let files: Map<string, Served> | null = null;
  return () => {
    if (files) return files;
    const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    const read = (name: string) => fs.readFileSync(path.join(dist, name));
    files = new Map([
      ['swagger-ui-bundle.js', served('text/javascript; charset=utf-8', read('swagger-ui-bundle.js'))],
      ['swagger-ui.css', served('text/css; charset=utf-8', read('swagger-ui.css'))],
      ['init.js', served('text/javascript; charset=utf-8', INIT_SCRIPT)],
      ['docs.css', served('text/css; charset=utf-8', PAGE_STYLE)],
    ]);
    return files;
  };
}

function send(request: FastifyRequest, reply: FastifyReply, file: Served, cacheControl: string) {
  const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  reply
    .header('content-type', file.type)
    .header('cache-control', cacheControl)
    .header('vary', 'accept-encoding');
  if (gzip) reply.header('content-encoding', 'gzip');
  return reply.send(gzip ? file.gzipped : file.body);
}

/** The routes, registered under /api. `document` is built at the first request and kept. */
export async function apiDocsRoutes(app: FastifyInstance, document: () => Record<string, unknown>) {
  let json: Served | null = null;
  app.get('/openapi.json', async (request, reply) => {
    json ??= served('application/json; charset=utf-8', JSON.stringify(document()));
    return send(request, reply, json, 'no-cache');
  });

  const page = served('text/html; charset=utf-8', PAGE);
  app.get('/docs', async (_request, reply) => reply.redirect('/api/docs/', 301));
  app.get('/docs/', async (request, reply) => send(request, reply, page, 'no-cache'));
  const files = viewerFiles();
  app.get<{ Params: { file: string } }>('/docs/:file', async (request, reply) => {
    const file = files().get(request.params.file);
    if (!file) return reply.code(404).send({ detail: 'Not found.' });
    // Revalidated each time: the names carry no hash, and a new version of the viewer keeps them.
    return send(request, reply, file, 'no-cache');
  });
}

/** The catalog's entries of the routes above and of the health check app.ts answers. */
export const serverApi: ApiSection = {
  tag: 'Server',
  description: 'Health and this description.',
  routes: [
    {
      method: 'GET',
      path: '/api/health',
      summary: 'The process answers',
      auth: 'none',
      responses: { 200: z.object({ status: z.literal('ok') }) },
    },
    {
      method: 'GET',
      path: '/api/openapi.json',
      summary: 'This description (OpenAPI 3.1)',
      auth: 'none',
      responses: { 200: { contentType: 'application/json', description: 'The OpenAPI document' } },
    },
    {
      method: 'GET',
      path: '/api/docs',
      summary: 'Redirects to /api/docs/',
      auth: 'none',
      responses: { 301: { contentType: 'text/html', description: 'To /api/docs/' } },
    },
    {
      method: 'GET',
      path: '/api/docs/',
      summary: 'This reference, to read in a browser',
      auth: 'none',
      responses: { 200: { contentType: 'text/html', description: 'The page' } },
    },
    {
      method: 'GET',
      path: '/api/docs/:file',
      summary: "The reference page's scripts and styles",
      auth: 'none',
      responses: { 200: { contentType: 'text/javascript', description: 'The file' } },
      errors: [404],
    },
  ],
};
