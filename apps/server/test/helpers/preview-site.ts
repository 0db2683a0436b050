import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { elfOf, pngOf } from '@parley/fixtures';

// A small website on this machine for link previews to fetch: pages with Open Graph tags, a picture, a page
// whose "picture" is a program, and a count of the requests each path got.

export interface PreviewSite {
  origin: string;
  hits: (path: string) => number;
  close(): Promise<void>;
}

const page = (title: string, description: string, image?: string) =>
  `<!doctype html><html><head><title>Fallback</title>
  <meta property="og:title" content="${title}">
  <meta property="og:description" content="${description}">
  <meta property="og:site_name" content="Preview Site">
  ${image ? `<meta property="og:image" content="${image}">` : ''}
  </head><body><p>Body text</p></body></html>`;

export async function startPreviewSite(): Promise<PreviewSite> {
  const counts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const html = (body: string) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(body);
    };
    if (path === '/article') return html(page('An article', 'What it is about.', '/cover.png'));
    if (path === '/second') return html(page('A second page', 'Another one.'));
    if (path === '/program') return html(page('A program', 'Its picture is not one.', '/evil.png'));
    if (path === '/cover.png') {
      res.setHeader('content-type', 'image/png');
      return res.end(pngOf(1200, 630, '#3366ff'));
    }
    if (path === '/evil.png') {
      res.setHeader('content-type', 'image/png');
      return res.end(elfOf());
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits: (path) => counts.get(path) ?? 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
