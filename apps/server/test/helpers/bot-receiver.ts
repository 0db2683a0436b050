import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHolds } from '../../src/modules/bots/signature';
import type { Json } from './test-app';

// A bot's own server on this machine: it keeps every POST with its raw body and headers, checks Parley's
// signature with the secret the test gives it, and answers what the test says (a status, a JSON body, or
// nothing for as long as told).

export interface BotRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  json: Json;
  /** The signature checked against the secret set when the request came (null: no secret set). */
  signed: boolean | null;
}

export interface BotAnswer {
  status?: number;
  json?: unknown;
  /** Answer only after this long (a slow bot). */
  delayMs?: number;
}

export interface BotReceiver {
  readonly requests: BotRequest[];
  url(path: string): string;
  /** The secret signatures are checked with. */
  secret: string | null;
  /** What each next request to a path is answered; the last one stays. */
  answer(path: string, ...answers: BotAnswer[]): void;
  waitFor(path: string, count?: number, timeoutMs?: number): Promise<BotRequest>;
  to(path: string): BotRequest[];
  close(): Promise<void>;
}

export async function startBotReceiver(): Promise<BotReceiver> {
  const requests: BotRequest[] = [];
  const answers = new Map<string, BotAnswer[]>();
  const waiters: (() => void)[] = [];
  const receiver: BotReceiver = {
    requests,
    secret: null,
    url: (path) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`,
    answer(path, ...list) {
      answers.set(path, list);
    },
    to: (path) => requests.filter((r) => r.path === path),
    async waitFor(path, count = 1, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (receiver.to(path).length < count) {
        if (Date.now() > deadline)
          throw new Error(
            `bot receiver: ${count} request(s) to ${path} expected, ${receiver.to(path).length} came`,
          );
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
      return receiver.to(path)[count - 1] as BotRequest;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = receiver.secret;
      const signed =
        secret === null
          ? null
          : signatureHolds(
              secret,
              String(req.headers['x-parley-timestamp'] ?? ''),
              raw,
              String(req.headers['x-parley-signature'] ?? ''),
            );
      let json: unknown = null;
      try {
        json = JSON.parse(raw);
      } catch {}
      requests.push({ path, headers: req.headers, raw, json, signed });
      for (const w of waiters.splice(0)) w();
      const list = answers.get(path) ?? [];
      const answer = (list.length > 1 ? list.shift() : list[0]) ?? {};
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json ?? { ok: true }));
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return receiver;
}
