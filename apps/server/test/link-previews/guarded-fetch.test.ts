import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GuardedFetchOptions, guardedFetch } from '../../src/platform/guarded-fetch';
import { isPublicAddress } from '../../src/platform/public-address';

// The guard of every fetch made on a stranger's word, against real HTTP servers on this machine. 127.0.0.1 plays
// the public internet here; 127.0.0.2 (also this machine) plays an address inside the network, and counts every
// request that reaches it: the guard must stop before any does.

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

async function serve(host: string, handler: Handler) {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { server, hits, origin: `http://${host}:${port}` };
}

const HTML = '<html><head><title>Hello</title></head></html>';
let site: Awaited<ReturnType<typeof serve>>;
let inside: Awaited<ReturnType<typeof serve>>;

const options = (more: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
  allowAddress: (address) => address === '127.0.0.1',
  anyPort: true,
  timeoutMs: 5000,
  maxBytes: 1024 * 1024,
  maxRedirects: 3,
  accept: 'text/html',
  accepts: (type) => type === 'text/html',
  userAgent: 'ParleyTest',
  ...more,
});

const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'fetched',
    (err: Error & { reason?: string }) => err.reason ?? err.message,
  );

beforeAll(async () => {
  inside = await serve('127.0.0.2', (_req, res) => res.end(HTML));
  site = await serve('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.setHeader('set-cookie', 'tracker=1');
        return res.end(HTML);
      case '/headers':
        res.setHeader('content-type', 'text/html');
        return res.end(JSON.stringify(req.headers));
      case '/gzip':
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-encoding', 'gzip');
        return res.end(gzipSync(HTML));
      case '/bomb':
        // 20 MiB of zeros in a few KiB: the ceiling counts what it unpacks to.
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-encoding', 'gzip');
        return res.end(gzipSync(Buffer.alloc(20 * 1024 * 1024)));
      case '/big':
        res.setHeader('content-type', 'text/html');
        res.setHeader('content-length', String(20 * 1024 * 1024));
        return res.end(Buffer.alloc(20 * 1024 * 1024, 'a'));
      case '/big-chunked': {
        res.setHeader('content-type', 'text/html');
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        const more = () => {
          while (sent < 320 && res.write(chunk)) sent++;
          if (sent < 320) res.once('drain', more);
          else res.end();
        };
        res.on('error', () => {});
        return more();
      }
      case '/slow':
        res.setHeader('content-type', 'text/html');
        res.write('<html><head>');
        return; // never ends
      case '/json':
        res.setHeader('content-type', 'application/json');
        return res.end('{}');
      case '/to-inside':
        res.statusCode = 302;
        res.setHeader('location', `${inside.origin}/secret`);
        return res.end();
      case '/to-file':
        res.statusCode = 302;
        res.setHeader('location', 'file:///etc/passwd');
        return res.end();
      case '/loop': {
        const n = Number(url.searchParams.get('n') ?? 0);
        res.statusCode = 302;
        res.setHeader('location', `/loop?n=${n + 1}`);
        return res.end();
      }
      case '/hop':
        res.statusCode = 307;
        res.setHeader('location', '/page');
        return res.end();
      default:
        res.statusCode = 404;
        return res.end();
    }
  });
});

afterAll(async () => {
  site.server.closeAllConnections();
  inside.server.closeAllConnections();
  await Promise.all([site, inside].map((s) => new Promise((r) => s.server.close(r))));
});

describe('guardedFetch', () => {
  it('reads an allowed page, following a redirect, sending no cookie and naming itself', async () => {
    const page = await guardedFetch(`${site.origin}/hop`, options());
    expect(page.url.pathname).toBe('/page');
    expect(page.mediaType).toBe('text/html');
    expect(page.charset).toBe('utf-8');
    expect(page.body.toString()).toBe(HTML);
    const headers = JSON.parse((await guardedFetch(`${site.origin}/headers`, options())).body.toString());
    expect(headers['user-agent']).toBe('ParleyTest');
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
  });

  it('unpacks a compressed page', async () => {
    expect((await guardedFetch(`${site.origin}/gzip`, options())).body.toString()).toBe(HTML);
  });

  it('never connects to an address it does not allow, written or resolved, first or after a redirect', async () => {
    expect(await reason(guardedFetch(`${inside.origin}/secret`, options()))).toBe('address refused');
    expect(await reason(guardedFetch(`${site.origin}/to-inside`, options()))).toBe('address refused');
    expect(inside.hits).toEqual([]);
  });

  it('checks a name by what it resolves to, with the policy of a deployment', async () => {
    const deployed = options({ allowAddress: isPublicAddress });
    const port = new URL(inside.origin).port;
    expect(await reason(guardedFetch(`http://localhost:${port}/secret`, deployed))).toBe('address refused');
    expect(await reason(guardedFetch(`${site.origin}/page`, deployed))).toBe('address refused');
    expect(inside.hits).toEqual([]);
  });

  it('asks only for http(s) on ports 80 and 443 unless told otherwise', async () => {
    const strict = options({ anyPort: false });
    expect(await reason(guardedFetch(`${site.origin}/page`, strict))).toBe('address refused');
    expect(await reason(guardedFetch('file:///etc/passwd', options()))).toBe('address refused');
    expect(await reason(guardedFetch(`${site.origin}/to-file`, options()))).toBe('address refused');
    expect(await reason(guardedFetch('http://user:pw@127.0.0.1/', options()))).toBe('address refused');
    expect(await reason(guardedFetch('not a url', options()))).toBe('not a URL');
  });

  it('follows at most the redirects it was given', async () => {
    const before = site.hits.filter((h) => h.startsWith('/loop')).length;
    expect(await reason(guardedFetch(`${site.origin}/loop`, options()))).toBe('too many redirects');
    expect(site.hits.filter((h) => h.startsWith('/loop')).length - before).toBe(4);
  });

  it('refuses what is too large, declared or not, compressed or not', async () => {
    expect(await reason(guardedFetch(`${site.origin}/big`, options()))).toBe('too large');
    expect(await reason(guardedFetch(`${site.origin}/big-chunked`, options()))).toBe('too large');
    expect(await reason(guardedFetch(`${site.origin}/bomb`, options()))).toBe('too large');
  });

  it('gives up on a slow page at its deadline', async () => {
    const started = Date.now();
    expect(await reason(guardedFetch(`${site.origin}/slow`, options({ timeoutMs: 500 })))).toBe('timed out');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('refuses a type it was not asked for, and an error status', async () => {
    expect(await reason(guardedFetch(`${site.origin}/json`, options()))).toBe('type application/json');
    expect(await reason(guardedFetch(`${site.origin}/missing`, options()))).toBe('status 404');
  });
});
