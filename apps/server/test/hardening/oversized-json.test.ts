import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { people } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';

// A JSON body over the 1 MiB limit: the client must read the 413. Refusing it unread and closing
// the connection made a client that was still uploading fail with EPIPE (a browser: a reset) instead.
const app = useTestApp();

interface Seen {
  status: number | null;
  body: string;
  errors: string[];
  finished: boolean;
}

/** Uploads `bytes` of JSON in 64 KiB writes paced like a real network, and reports what the client saw. */
function upload(
  baseUrl: string,
  path: string,
  token: string,
  bytes: number,
  chunked: boolean,
): Promise<Seen> {
  return new Promise((resolve) => {
    const seen: Seen = { status: null, body: '', errors: [], finished: false };
    const req = http.request(`${baseUrl}${path}`, {
      method: 'PUT',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        ...(chunked ? {} : { 'content-length': String(bytes) }),
      },
    });
    req.on('response', (res) => {
      seen.status = res.statusCode ?? null;
      res.on('data', (c: Buffer) => {
        seen.body += c.toString();
      });
    });
    req.on('error', (err) => seen.errors.push((err as NodeJS.ErrnoException).code ?? err.message));
    req.on('finish', () => {
      seen.finished = true;
    });
    req.on('close', () => setTimeout(() => resolve(seen), 50));
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        const n = Math.min(64 * 1024, bytes - sent);
        sent += n;
        if (!req.write(Buffer.alloc(n, 0x78))) return req.once('drain', pump);
        if (sent < bytes) return setTimeout(pump, 1);
      }
      req.end();
    };
    pump();
  });
}

describe('a JSON body over the limit', () => {
  it('is answered 413 after the upload, which the client reads, with or without a content-length', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    for (const chunked of [false, true]) {
      const seen = await upload(t.baseUrl, '/api/users/profile/update/', ada.token, 4 * 1024 * 1024, chunked);
      expect(seen, `chunked: ${chunked}`).toMatchObject({ status: 413, errors: [], finished: true });
      expect(JSON.parse(seen.body)).toEqual({ detail: 'The upload is too large.' });
    }
    // The server keeps serving.
    expect((await t.get('/api/users/profile/', ada.token)).status).toBe(200);
  });
});
