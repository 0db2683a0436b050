// A throwaway Parley for the scripts beside this file (lighthouse.ts, readme-screenshot.ts): the production
// build (apps/server/dist serving apps/web/dist) on a free port with a fresh SQLite database, people signed up
// through the API (their codes read from the dev outbox), chats, messages sent on the room socket, and a
// browser page signed in as one of them.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@parley/protocol';
import type { Page } from '@playwright/test';
import WebSocket from 'ws';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Debian's Chromium, never a downloaded browser (CHROMIUM_PATH overrides), and the flags it runs with. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
];

export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** The SQLite file the server keeps in its DATA_DIR. */
export const databaseFile = (dataDir: string) => path.join(dataDir, 'parley.db');

export function startServer(port: number, dataDir: string): ChildProcess {
  const main = path.join(repo, 'apps/server/dist/main.js');
  // WEB_DIST (the server's own setting) may point at a copy of the build.
  const web = process.env.WEB_DIST ?? path.join(repo, 'apps/web/dist');
  if (!fs.existsSync(main) || !fs.existsSync(path.join(web, 'index.html')))
    throw new Error('Build first: npm run build');
  return spawn(process.execPath, [main], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      NODE_ENV: 'test',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
    },
  });
}

/** Ends the server and waits for it to go. */
export async function stopServer(server: ChildProcess) {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

export interface Session {
  token: string;
  user: { id: number; username: string };
}

export interface PersonName {
  first: string;
  last: string;
  /** A random one (`{first}_{8 hex digits}`) when left out. */
  username?: string;
}

const send = (base: string, method: string, url: string, body?: unknown, token?: string) =>
  fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

/** An API call as `as`; throws on an error status, answers the JSON (or null for 204). */
export async function api<T = unknown>(
  base: string,
  as: Session,
  method: string,
  url: string,
  body?: unknown,
): Promise<T> {
  const res = await send(base, method, url, body, as.token);
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (res.status === 204 ? null : await res.json()) as T;
}

/** A numbered conversation's filler, as the audits seed it: every seventh a longer message with a link. */
export const conversationFiller = (count: number) =>
  Array.from({ length: count }, (_, n) => {
    const i = n + 1;
    return i % 7 === 0
      ? `Message ${i}: a longer one, to fill the bubble the way a real conversation does, with https://example.com/page-${i}`
      : `Message ${i} of the conversation`;
  });

/** Signs a new person up through the API, verified with the code from the dev outbox, and logs them in. */
export async function person(base: string, name: PersonName): Promise<Session> {
  const id = randomBytes(4).toString('hex');
  const username = name.username ?? `${name.first.toLowerCase()}_${id}`;
  const account = {
    first_name: name.first,
    last_name: name.last,
    username,
    email: `${username.toLowerCase()}.${id}@example.test`,
    password: `Parley-local-${id}`,
  };
  const registered = await send(base, 'POST', '/api/users/register/', account);
  if (!registered.ok) throw new Error(`Sign-up failed: ${registered.status} ${await registered.text()}`);
  let code: string | undefined;
  await waitFor(async () => {
    const mails = (await (await fetch(`${base}/dev/mail.json`)).json()) as {
      to: string | string[];
      text: string;
    }[];
    code = mails.find((m) => String(m.to).includes(account.email))?.text.match(/\b(\d{6})\b/)?.[1];
    return code !== undefined;
  }, 'the sign-up code');
  const verified = await send(base, 'POST', '/api/users/email/verify/signup/', {
    email: account.email,
    verification_code: code,
  });
  if (!verified.ok) throw new Error(`Verification failed: ${verified.status}`);
  const login = await send(base, 'POST', '/api/users/login/', {
    email: account.email,
    password: account.password,
    remember_me: true,
  });
  if (!login.ok) throw new Error(`Login failed: ${login.status}`);
  const { token, ...user } = (await login.json()) as Session['user'] & { token: string };
  return { token, user };
}

/** The private chat of `from` with `to` (started if new); answers its chat_id. */
export async function startChat(base: string, from: Session, to: Session): Promise<string> {
  const { chat_id } = await api<{ chat_id: string }>(
    base,
    from,
    'GET',
    `/api/chats/start/${encodeURIComponent(to.user.username)}/`,
  );
  return chat_id;
}

/** A socket on the chat's room, open: its presence marks `as` as in the chat until it is closed. */
export async function openRoom(base: string, as: Session, chatId: string): Promise<WebSocket> {
  const { ticket } = await api<{ ticket: string }>(base, as, 'POST', '/api/ws/ticket/');
  const ws = new WebSocket(
    `${base.replace('http', 'ws')}/ws/chatroom/${encodeURIComponent(chatId)}/?token=${encodeURIComponent(ticket)}`,
  );
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return ws;
}

/** A message to send: its text, and the id of the message it answers. */
export type Outgoing = string | { body: string; reply_to?: number };

/** Sends the messages into the chat on its room socket, in order, and answers them as stored. */
export async function converse(
  base: string,
  from: Session,
  chatId: string,
  messages: readonly Outgoing[],
): Promise<Message[]> {
  const ws = await openRoom(base, from, chatId);
  const clientIds = messages.map((_, i) => `local-${i}-${randomBytes(4).toString('hex')}`);
  const stored = new Map<string, Message>();
  const done = new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as {
        type: string;
        message?: Message | string;
        client_id?: string | null;
      };
      if (frame.type === 'error') reject(new Error(`Room socket: ${String(frame.message)}`));
      if (frame.type !== 'chat_message' || !frame.client_id || !clientIds.includes(frame.client_id)) return;
      stored.set(frame.client_id, frame.message as Message);
      if (stored.size === messages.length) resolve();
    });
  });
  messages.forEach((m, i) => {
    const { body, reply_to } = typeof m === 'string' ? { body: m, reply_to: undefined } : m;
    ws.send(JSON.stringify({ type: 'chat_message', body, client_id: clientIds[i], reply_to }));
  });
  try {
    await done;
  } finally {
    ws.close(1000);
  }
  return clientIds.map((id) => stored.get(id)!);
}

/** Signs the page in as `as` the way the app keeps a remembered session: token, user and rememberMe. */
export async function signIn(page: Page, base: string, as: Session) {
  // Any page of the origin will do; the health check is the lightest one.
  await page.goto(`${base}/api/health`);
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('user', JSON.stringify(user));
      localStorage.setItem('rememberMe', 'true');
    },
    { token: as.token, user: as.user },
  );
}
