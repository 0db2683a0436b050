import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

// Pages for the latency scenario's links: every address a page of its own with Open Graph tags and a picture
// (a 1200 × 630 JPEG, the usual size of one), served from the bench's process so each preview is fetched and
// thumbnailed as a real one would be.

export interface PreviewPages {
  /** Addresses under it are pages: `${base}/{anything}`. */
  base: string;
  close(): Promise<void>;
}

export async function startPreviewPages(): Promise<PreviewPages> {
  const picture = await sharp({
    create: { width: 1200, height: 630, channels: 3, background: { r: 40, g: 110, b: 180 } },
  })
    .jpeg({ quality: 80 })
    .toBuffer();
  const server = createServer((req, res) => {
    if (req.url === '/cover.jpg') {
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': picture.length });
      return res.end(picture);
    }
    const html = `<!doctype html><html><head><title>Page ${req.url}</title>
      <meta property="og:title" content="A page about ${req.url}">
      <meta property="og:description" content="What a shared page usually says about itself, in a sentence or two.">
      <meta property="og:site_name" content="Bench Pages">
      <meta property="og:image" content="/cover.jpg"></head><body>${'<p>Text of the page.</p>'.repeat(200)}</body></html>`;
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/p`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
