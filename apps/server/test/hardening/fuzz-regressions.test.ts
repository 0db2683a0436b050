import { afterAll, beforeAll, describe, it } from 'vitest';
import { type HttpCase, HttpFuzzer } from '../helpers/fuzz-http';
import { type SocketCase, SocketFuzzer } from '../helpers/fuzz-sockets';
import { makeWorld } from '../helpers/fuzz-world';
import { startTestApp, type TestApp } from '../helpers/test-app';

// What the fuzzers (fuzz-http, fuzz-sockets) found, each failing input kept as it was printed (placeholders
// ⟦…⟧ are the world's values) and replayed with the same checks. A finding whose fix has not landed yet is listed
// under `it.fails` (none now): the test then starts failing, which says to move it up and to remove
// its entry from OPEN_FINDINGS (fuzz-world.ts).

/** HTTP inputs that once broke a check, now answered in the documented shape. */
const HTTP_FIXED: [string, HttpCase][] = [
  [
    'a path parameter that is not valid percent-encoding (a lone surrogate after NUL)',
    {
      method: 'DELETE',
      path: '/api/admin/users/%00%ED%A0%BD/verify/',
      auth: 'none',
      body: { kind: 'json', value: {}, contentType: 'application/json' },
    },
  ],
  [
    "headers past Node's 16 KiB (a long token): once 431 in Fastify's own shape",
    { method: 'GET', path: '/api/chats/my/', auth: `Bearer ${'a'.repeat(20_000)}`, body: { kind: 'none' } },
  ],
  [
    // The 431 once carried its JSON body on a HEAD answer too, which the client took as a broken next answer.
    "a HEAD request with headers past Node's 16 KiB",
    {
      method: 'HEAD',
      path: `/api/health?q=${'x'.repeat(9000)}`,
      auth: `Bearer ${'a'.repeat(20_000)}`,
      body: { kind: 'none' },
    },
  ],
  [
    'a plain GET on a room socket path, without an upgrade',
    {
      method: 'GET',
      path: '/ws/chatroom/%E2%9F%A6privateChat%E2%9F%A7/',
      auth: 'me',
      body: { kind: 'none' },
    },
  ],
  [
    // PostgreSQL refuses a NUL in a text parameter: a public profile's name holding one once answered 500.
    'a public profile named with a NUL character',
    { method: 'GET', path: '/api/users/@a%00b/', auth: 'me', body: { kind: 'none' } },
  ],
];

/** Socket inputs that once broke a check. */
const SOCKET_FIXED: [string, SocketCase][] = [
  [
    // The notification socket's error frame was not in its protocol schema, so the web client dropped it.
    'an empty frame on the notification socket is answered with a frame the protocol names',
    { channel: 'notifications', frames: [{ kind: 'text', text: '' }] },
  ],
  [
    'a frame of a room socket on the notification socket',
    { channel: 'notifications', frames: [{ kind: 'json', value: { type: 'typing', is_typing: true } }] },
  ],
];

let t: TestApp;
let http: HttpFuzzer;
beforeAll(async () => {
  t = await startTestApp({ config: { messageRateLimit: 100_000, socketTicketsPerMinute: 100_000 } });
  http = new HttpFuzzer(t, await makeWorld(t));
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('inputs the fuzzers found', () => {
  for (const [name, c] of HTTP_FIXED) it(`HTTP: ${name}`, () => http.run(c, true));
  for (const [name, c] of SOCKET_FIXED) {
    it(`socket: ${name}`, async () => {
      const sockets = new SocketFuzzer(t, http.world, c.channel);
      try {
        await sockets.run(c);
      } finally {
        await sockets.close();
      }
    });
  }
});
