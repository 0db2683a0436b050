import {
  createDecipheriv,
  createECDH,
  createPublicKey,
  type ECDH,
  hkdfSync,
  randomBytes,
  verify,
} from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import type { SignedUp, TestApp } from './test-app';

// A stand-in for a browser and its push service. The "browser" is a P-256 key pair and an auth secret, as
// PushManager.subscribe would make; the "push service" is a local HTTP server that keeps every POST and
// answers what the test says. Payloads are decrypted here, independently of web-push, per RFC 8291 (Web
// Push encryption) over RFC 8188 (aes128gcm), and the VAPID header (RFC 8292) is checked against the key.

export interface PushRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PushEndpoint {
  readonly requests: PushRequest[];
  /** The status answered for a path (201 unless set). */
  answer(path: string, status: number): void;
  /** Waits for the `count`-th request to a path. */
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<PushRequest>;
  to(path: string): PushRequest[];
  url(path: string): string;
  close(): Promise<void>;
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const requests: PushRequest[] = [];
  const answers = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      requests.push({ path, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(path) ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const to = (path: string) => requests.filter((r) => r.path === path);
  return {
    requests,
    answer: (path, status) => void answers.set(path, status),
    to,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    async waitFor(path, count = 1, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = to(path);
        if (found.length >= count) return found[count - 1] as PushRequest;
        if (Date.now() > deadline) {
          const seen = requests.map((r) => r.path).join(', ') || 'none';
          throw new Error(`No push #${count} to ${path} within ${timeoutMs} ms (received: ${seen})`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser's push subscription keys: what the app POSTs, plus the private half to decrypt with. */
export class FakeBrowser {
  readonly ecdh: ECDH = createECDH('prime256v1');
  readonly authSecret = randomBytes(16);
  constructor(readonly endpoint: string) {
    this.ecdh.generateKeys();
  }

  get subscription() {
    return {
      endpoint: this.endpoint,
      keys: {
        p256dh: this.ecdh.getPublicKey().toString('base64url'),
        auth: this.authSecret.toString('base64url'),
      },
    };
  }

  /** Decrypts an aes128gcm push message body (one record) and returns its text. */
  decrypt(body: Buffer): string {
    // RFC 8188 header: salt (16) | record size (4) | key id length (1) | key id (the sender's public key).
    const salt = body.subarray(0, 16);
    const idLength = body.readUInt8(20);
    const senderPublic = body.subarray(21, 21 + idLength);
    const record = body.subarray(21 + idLength);
    if (idLength !== 65) throw new Error(`unexpected key id length ${idLength}`);

    // RFC 8291 §3.4: IKM from the ECDH secret, keyed by the auth secret and bound to both public keys.
    const ecdhSecret = this.ecdh.computeSecret(senderPublic);
    const keyInfo = Buffer.concat([
      Buffer.from('WebPush: info\0', 'latin1'),
      this.ecdh.getPublicKey(),
      senderPublic,
    ]);
    const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, this.authSecret, keyInfo, 32));
    // RFC 8188 §2.2/2.3: content key and nonce from the salt.
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));

    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // The last record ends with the delimiter 0x02 followed by zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error('missing last-record delimiter');
    return padded.subarray(0, end).toString('utf8');
  }
}

/**
 * Checks `Authorization: vapid t=<JWT>, k=<key>`: the key is the server's, the JWT is ES256-signed by it and
 * names the push service's origin as its audience. Returns the JWT's claims.
 */
export function verifyVapid(authorization: string | undefined, publicKey: string, audience: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`not a VAPID authorization: ${authorization}`);
  if (match[2] !== publicKey) throw new Error('VAPID key is not the server key');
  const [header, claims, signature] = match[1].split('.') as [string, string, string];
  const raw = Buffer.from(publicKey, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: raw.subarray(1, 33).toString('base64url'),
      y: raw.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const parsed = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8'));
  if (parsed.aud !== audience) throw new Error(`VAPID audience ${parsed.aud}, expected ${audience}`);
  return parsed as { aud: string; exp: number; sub: string };
}

/** The path of a browser's endpoint: what the push service's requests are kept under. */
export const pathOf = (browser: FakeBrowser) => new URL(browser.endpoint).pathname;

export interface PushService extends Omit<PushEndpoint, 'close'> {
  /** A new browser for the person, subscribed through the API (the 201 asserted). */
  subscribe(t: TestApp, person: SignedUp): Promise<FakeBrowser>;
}

/**
 * A push service started before each test of the calling file (or describe block) and closed after it; call at
 * the top level of the file or block.
 */
export function usePushService(): PushService {
  let current: PushEndpoint | null = null;
  let browsers = 0;
  beforeEach(async () => {
    current = await startPushEndpoint();
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
  const now = () => {
    if (!current) throw new Error('the push service runs only during a test');
    return current;
  };
  return {
    get requests() {
      return now().requests;
    },
    answer: (path, status) => now().answer(path, status),
    waitFor: (path, count, timeoutMs) => now().waitFor(path, count, timeoutMs),
    to: (path) => now().to(path),
    url: (path) => now().url(path),
    async subscribe(t, person) {
      const browser = new FakeBrowser(now().url(`/push/${++browsers}-${person.user.id}`));
      const res = await t.post('/api/push/subscriptions/', browser.subscription, person.token);
      expect(res.status, res.text).toBe(201);
      return browser;
    },
  };
}
