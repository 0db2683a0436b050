import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/test-app';

// The built web app as the server sends it (the Lighthouse budget): hashed assets cached for a year,
// everything else revalidated (index.html, the service worker, the manifest), and the build's Brotli and gzip
// copies sent to a browser that accepts them.

const js = 'console.log("Parley");\n'.repeat(100);
let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-web-'));
  await fs.mkdir(path.join(webDist, 'assets'));
  await fs.writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>Parley</title>');
  await fs.writeFile(path.join(webDist, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  await fs.writeFile(path.join(webDist, 'assets/index-abc123.js'), js);
  await fs.writeFile(path.join(webDist, 'assets/index-abc123.js.br'), zlib.brotliCompressSync(js));
  await fs.writeFile(path.join(webDist, 'assets/index-abc123.js.gz'), zlib.gzipSync(js));
  t = await startTestApp({ config: { webDist } });
});

afterAll(async () => {
  await t?.close();
  await fs.rm(webDist, { recursive: true, force: true });
});

const fetchRaw = (urlPath: string, encoding?: string) =>
  fetch(`${t.baseUrl}${urlPath}`, { headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('the web build', () => {
  it('sends a hashed asset compressed when the browser accepts it, cached for a year', async () => {
    const br = await fetchRaw('/assets/index-abc123.js', 'br, gzip');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    // fetch decodes it: the same script arrives.
    expect(await br.text()).toBe(js);

    const gzip = await fetchRaw('/assets/index-abc123.js', 'gzip');
    expect(gzip.headers.get('content-encoding')).toBe('gzip');

    const plain = await fetchRaw('/assets/index-abc123.js', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(Number(plain.headers.get('content-length'))).toBe(js.length);
  });

  it('has the page, the service worker and any path of the app revalidated on each use', async () => {
    for (const urlPath of ['/index.html', '/sw.js', '/chats/abc']) {
      const res = await fetchRaw(urlPath);
      expect(res.status, urlPath).toBe(200);
      expect(res.headers.get('cache-control'), urlPath).toBe('no-cache');
    }
    expect(await (await fetchRaw('/chats/abc')).text()).toContain('<title>Parley</title>');
  });
});
