import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthResponse, RegisterPayload } from '@parley/protocol';
import argon2 from 'argon2';
import { sql } from 'kysely';
import WebSocket from 'ws';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { SessionService } from '../../src/modules/accounts/session.service';
import { DomainEvents } from '../../src/platform/events';
import { extractCode, GOOD_PASSWORD, newRegistration } from './factories';
import { acquireSchema, isPostgresUrl, migrationLock, releaseSchema } from './pg-schema';
import type { ApiResponse, Json, SignedUp } from './test-app';
import { type CloseInfo, WsClient } from './ws-client';

// Real Parley server processes for the scale-out and fault tests: `node --import tsx src/main.ts` exactly as an
// operator starts it, configured only through its environment, on a free port, killed with SIGKILL or stopped
// with SIGTERM. Every process started here is killed when the test worker exits, whatever happened.
//
// A ServerStore is the database the processes share (a SQLite file in a DATA_DIR, or a fresh PostgreSQL schema
// reached through `?options=-c search_path=<schema>` on DATABASE_URL, since the server has no schema variable),
// migrated before any process starts, with a Kysely handle for seeding and inspecting it.

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');

// ---------------------------------------------------------------------------------------------------------
// The shared database

export interface ServerStore {
  dialect: 'sqlite' | 'postgres';
  /** DATA_DIR of the processes (the SQLite file lives there); kept across restarts. */
  dataDir: string;
  /** DATABASE_URL for the processes (undefined: SQLite in dataDir). */
  databaseUrl: string | undefined;
  /** The test's own handle on the same database (seeding, inspection). */
  db: Db;
  /** Runs `fn` (a process start: its migrator introspects every schema) under the shared migration lock. */
  startGuard<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A PostgreSQL server URL (a fresh schema is made in it); SQLite when absent. */
  postgresUrl?: string;
}

/** postgres://…/db plus `options=-c search_path=<schema>`, which pg passes to the server at connect. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

export async function createStore(options: StoreOptions = {}): Promise<ServerStore> {
  const dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-proc-'));
  const pgUrl = options.postgresUrl;
  if (!pgUrl) {
    const { db } = createDb(loadConfig({ DATA_DIR: dataDir }));
    await migrateToLatest(db, 'sqlite');
    return {
      dialect: 'sqlite',
      dataDir,
      databaseUrl: undefined,
      db,
      startGuard: (fn) => fn(),
      async close() {
        await db.destroy().catch(() => {});
        await fsp.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!isPostgresUrl(pgUrl)) throw new Error(`not a PostgreSQL URL: ${pgUrl}`);
  let db: Db | null = null;
  let schema: string | null = null;
  try {
    schema = await acquireSchema(pgUrl);
    await migrationLock(pgUrl, async () => {
      db = createDb(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgUrl }, { databaseSchema: schema })).db;
      await migrateToLatest(db, 'postgres', schema);
      // User ids start at a random height: Redis keys (presence, rate limits, topics) are named by user id and
      // are not per schema, so runs and workers sharing one Redis must not meet on `parley:online:1`.
      await sql`SELECT setval(pg_get_serial_sequence('users', 'id'), ${randomInt(1_000_000, 1_000_000_000)})`.execute(
        db,
      );
    });
  } catch (err) {
    await (db as Db | null)?.destroy().catch(() => {});
    if (schema) await releaseSchema(pgUrl, schema, false).catch(() => {});
    await fsp.rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const handle = db as unknown as Db;
  const name = schema as unknown as string;
  return {
    dialect: 'postgres',
    dataDir,
    databaseUrl: withSearchPath(pgUrl, name),
    db: handle,
    startGuard: (fn) => migrationLock(pgUrl, fn),
    async close() {
      await handle.destroy().catch(() => {});
      await releaseSchema(pgUrl, name, false).catch(() => {});
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Processes

export interface SpawnOptions {
  store: ServerStore;
  /** A fixed port (a restart on the same address); a free one otherwise. */
  port?: number;
  redisUrl?: string;
  /** DATA_DIR; the store's by default. */
  dataDir?: string;
  /** More environment (a key set to undefined is removed). */
  env?: Record<string, string | undefined>;
  label?: string;
  /**
   * The entry point, relative to apps/server: src/main.ts through tsx by default; PARLEY_SERVER_ENTRY=dist/main.js
   * runs the built bundle instead (as `npm start` does).
   */
  entry?: string;
  /** How long to wait for GET /api/health (default 45 s: a cold start loads a lot of modules). */
  startTimeoutMs?: number;
}

export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook() {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // Last resort when a test worker ends without its afterAll (a crash, a timeout): no orphan servers.
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL');
  });
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A random address for X-Forwarded-For (the server trusts the proxy header): per-IP limits stay per test. */
export const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RequestOptions {
  json?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export class ServerProcess {
  readonly baseUrl: string;
  private readonly logTail: string[] = [];
  /** Parsed pino lines of level error or worse (50+), for "nothing went wrong" checks. */
  readonly errors: Json[] = [];
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | null = null;

  constructor(
    readonly child: ChildProcess,
    readonly port: number,
    readonly label: string,
    readonly dataDir: string,
  ) {
    this.baseUrl = `http://127.0.0.1:${port}`;
    // Log lines are pino JSON (NODE_ENV=test); a line may arrive in pieces, so each stream keeps its partial tail.
    const reader = () => {
      let partial = '';
      return (text: string) => {
        this.logTail.push(text);
        while (this.logTail.length > 200) this.logTail.shift();
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.startsWith('{')) continue;
          try {
            const entry = JSON.parse(line);
            if (typeof entry.level === 'number' && entry.level >= 50) this.errors.push(entry);
          } catch {
            // Not a log line.
          }
        }
      };
    };
    child.stdout?.setEncoding('utf8').on('data', reader());
    child.stderr?.setEncoding('utf8').on('data', reader());
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        live.delete(child);
        this.exitInfo = { code, signal };
        resolve(this.exitInfo);
      });
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  get running(): boolean {
    return this.exitInfo === null;
  }

  /** The last lines the process wrote (stdout and stderr). */
  output(): string {
    return this.logTail.join('').slice(-8000);
  }

  /** Resident set size of the process in KiB (VmRSS from /proc). */
  rssKiB(): number {
    const status = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    if (!match?.[1]) throw new Error(`${this.label}: no VmRSS in /proc/${this.pid}/status`);
    return Number(match[1]);
  }

  /** CPU seconds (user + system) the process has used so far, from /proc/<pid>/stat. */
  cpuSeconds(): number {
    const stat = fs.readFileSync(`/proc/${this.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  }

  async request(method: string, urlPath: string, o: RequestOptions = {}): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...o.headers };
    let body: string | undefined;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const res = await fetch(`${this.baseUrl}${urlPath}`, { method, headers, body });
    const text = await res.text();
    let parsed: Json = text;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text)
      parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }

  get(urlPath: string, token?: string): Promise<ApiResponse> {
    return this.request('GET', urlPath, { token });
  }

  post(urlPath: string, json: unknown = {}, token?: string, headers?: Record<string, string>) {
    return this.request('POST', urlPath, { json, token, headers });
  }

  /** Signs up through the real flow: register, the code from this process's dev outbox, verify. */
  async signUp(overrides: Partial<RegisterPayload> = {}, ip = randomIp()): Promise<SignedUp> {
    const payload = newRegistration(overrides);
    const headers = { 'x-forwarded-for': ip };
    const reg = await this.post('/api/users/register/', payload, undefined, headers);
    if (reg.status !== 200) throw new Error(`${this.label} register: ${reg.status} ${reg.text}`);
    const code = extractCode((await this.mailTo(payload.email)).text);
    const res = await this.post(
      '/api/users/email/verify/signup/',
      { email: payload.email, verification_code: code },
      undefined,
      headers,
    );
    if (res.status !== 200) throw new Error(`${this.label} verify: ${res.status} ${res.text}`);
    const { token, ...user } = res.body as AuthResponse;
    return { token, user, payload };
  }

  /** The newest dev-outbox mail to `address` (GET /dev/mail.json), waiting up to `timeoutMs`. */
  async mailTo(address: string, timeoutMs = 5000): Promise<{ to: string; subject: string; text: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get('/dev/mail.json');
      if (res.status !== 200) throw new Error(`${this.label} /dev/mail.json: ${res.status} ${res.text}`);
      const found = (res.body as { to: string; subject: string; text: string }[]).find(
        (m) => m.to.toLowerCase() === address.toLowerCase(),
      );
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`${this.label}: no mail to ${address} in the dev outbox`);
      await sleep(25);
    }
  }

  /** A fresh single-use socket ticket from this process. */
  async ticket(token: string): Promise<string> {
    const res = await this.post('/api/ws/ticket/', {}, token);
    if (res.status !== 200 || typeof res.body?.ticket !== 'string') {
      throw new Error(`${this.label} ticket: ${res.status} ${res.text}`);
    }
    return res.body.ticket;
  }

  wsUrl(socketPath: string, credential: string): string {
    const url = new URL(socketPath, this.baseUrl.replace(/^http/, 'ws'));
    url.searchParams.set('token', credential);
    return url.toString();
  }

  /** Opens a socket with a fresh ticket (the harness client: every frame kept, `next` to wait for one). */
  async connect(socketPath: string, token: string, label?: string): Promise<WsClient> {
    const ticket = await this.ticket(token);
    return WsClient.connect(this.wsUrl(socketPath, ticket), {
      label: `${this.label} ${label ?? socketPath}`,
    });
  }

  /** Joins a room and takes its first in_chat_users_update and in_chat_count (returned). */
  async joinRoom(token: string, chatId: string, label?: string) {
    const client = await this.connect(roomPath(chatId), token, label ?? `room ${chatId}`);
    if (!client.opened) throw new Error(`${this.label}: room socket refused`);
    const users = await client.next('in_chat_users_update', () => true, 10_000);
    const count = await client.next('in_chat_count', () => true, 10_000);
    return { client, userIds: users.user_ids as number[], count: count.count as number };
  }

  async openNotifications(token: string, label = 'notifications') {
    const client = await this.connect('/ws/notifications/', token, label);
    const first = await client.next('notification_count', () => true, 10_000);
    return { client, count: first.count as number };
  }

  /** SIGKILL (or another signal) and wait until the process is gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.kill(signal);
    return this.exited;
  }

  /** SIGTERM (graceful), then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 12_000): Promise<ExitInfo> {
    if (this.exitInfo) return this.exitInfo;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }
}

export const roomPath = (chatId: string) => `/ws/chatroom/${encodeURIComponent(chatId)}/`;

const started = new Set<ServerProcess>();

/** Starts a Parley process on the store and waits until GET /api/health answers 200. */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  installExitHook();
  const { store } = options;
  const port = options.port ?? (await freePort());
  const dataDir = options.dataDir ?? store.dataDir;
  // Nothing of the test runner's own configuration leaks into the server: the system's basics, then Parley's.
  const env: Record<string, string | undefined> = {};
  for (const key of ['PATH', 'HOME', 'USER', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'SHELL'])
    env[key] = process.env[key];
  Object.assign(env, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    // No built web app: the API and sockets only.
    WEB_DIST: path.join(dataDir, 'no-web'),
    DATABASE_URL: store.databaseUrl,
    REDIS_URL: options.redisUrl,
    // The tests stand where a reverse proxy would: X-Forwarded-For from loopback names the client, so each
    // test's sign-ups and failed logins count against an address of its own (limits in Redis outlive a run).
    TRUST_PROXY: 'loopback',
    ...options.env,
  });
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];

  const label = options.label ?? `server:${port}`;
  return store.startGuard(async () => {
    const entry = options.entry ?? process.env.PARLEY_SERVER_ENTRY ?? 'src/main.ts';
    const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry];
    const child = spawn(process.execPath, args, {
      cwd: serverDir,
      env: env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    const proc = new ServerProcess(child, port, label, dataDir);
    started.add(proc);
    const deadline = Date.now() + (options.startTimeoutMs ?? 45_000);
    for (;;) {
      if (!proc.running) {
        throw new Error(
          `${label} exited before it was ready: ${JSON.stringify(await proc.exited)}\n${proc.output()}`,
        );
      }
      const ok = await fetch(`${proc.baseUrl}/api/health`)
        .then((r) => r.status === 200)
        .catch(() => false);
      if (ok) return proc;
      if (Date.now() > deadline) {
        await proc.kill();
        throw new Error(`${label} not ready within the start timeout\n${proc.output()}`);
      }
      await sleep(50);
    }
  });
}

/** Kills every process this worker started that is still running (afterAll; also safe after failures). */
export async function killAll(): Promise<void> {
  await Promise.all([...started].map((p) => p.kill()));
  started.clear();
}

// ---------------------------------------------------------------------------------------------------------
// Seeding straight into the database (hundreds of people without hundreds of argon2 hashes)

export interface Person {
  id: number;
  token: string;
  username: string;
}

let passwordHash: Promise<string> | null = null;
let seeded = 0;

/** Activated people with a live (remember-me) session each, written in the database. */
export async function seedPeople(db: Db, count: number, prefix = 'load'): Promise<Person[]> {
  passwordHash ??= argon2.hash(GOOD_PASSWORD, { type: argon2.argon2id, memoryCost: 1024, timeCost: 2 });
  const hash = await passwordHash;
  const tag = randomBytes(3).toString('hex');
  const now = new Date().toISOString();
  const out: Person[] = [];
  // One transaction: hundreds of rows without hundreds of commits.
  await db.transaction().execute(async (trx) => {
    const sessions = new SessionService(trx, new DomainEvents());
    for (let i = 0; i < count; i++) {
      const username = `${prefix}_${tag}_${++seeded}`;
      const row = await trx
        .insertInto('users')
        .values({
          username,
          email: `${username}@example.test`,
          password_hash: hash,
          first_name: prefix,
          last_name: String(seeded),
          displayname: `${prefix} ${seeded}`,
          is_activated: 1,
          date_joined: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      out.push({ id: row.id, username, token: await sessions.create(row.id, true) });
    }
  });
  return out;
}

/** A group made through the API by `owner`, with `members` added straight in the database. */
export async function seedGroup(
  proc: ServerProcess,
  db: Db,
  owner: Person,
  members: Person[],
  name = 'Load',
): Promise<string> {
  const res = await proc.post('/api/chats/group/new/', { group_name: name }, owner.token);
  if (res.status !== 200) throw new Error(`group: ${res.status} ${res.text}`);
  const chatId: string = res.body.chat_id;
  await addMembers(db, chatId, members);
  return chatId;
}

async function chatDbId(db: Db, chatId: string): Promise<number> {
  return (await db.selectFrom('chats').select('id').where('chat_id', '=', chatId).executeTakeFirstOrThrow())
    .id;
}

export async function addMembers(db: Db, chatId: string, members: Person[]): Promise<void> {
  if (members.length === 0) return;
  const id = await chatDbId(db, chatId);
  const joined_at = new Date().toISOString();
  await db
    .insertInto('chat_members')
    .values(members.map((m) => ({ chat_id: id, user_id: m.id, role: 'member' as const, joined_at })))
    .execute();
}

export async function removeMembers(db: Db, chatId: string, members: Person[]): Promise<void> {
  if (members.length === 0) return;
  const id = await chatDbId(db, chatId);
  await db
    .deleteFrom('chat_members')
    .where('chat_id', '=', id)
    .where(
      'user_id',
      'in',
      members.map((m) => m.id),
    )
    .execute();
}

/** Every message of a chat in id order, straight from the database. */
export async function storedMessages(db: Db, chatId: string) {
  const id = await chatDbId(db, chatId);
  return db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'client_id', 'body'])
    .where('chat_id', '=', id)
    .where('kind', '=', 'user')
    .orderBy('id')
    .execute();
}

/** The whole history after `afterId` through the API, paging with ?after= (100 a page). */
export async function historyAfter(
  proc: ServerProcess,
  token: string,
  chatId: string,
  afterId: number,
): Promise<Json[]> {
  const out: Json[] = [];
  let after = afterId;
  for (;;) {
    const res = await proc.get(`/api/chats/${chatId}/messages/?after=${after}&limit=100`, token);
    if (res.status !== 200) throw new Error(`history: ${res.status} ${res.text}`);
    const page = res.body as Json[];
    out.push(...page);
    if (page.length < 100) return out;
    after = page[page.length - 1].id;
  }
}

// ---------------------------------------------------------------------------------------------------------
// A lean socket for load: frames go to a callback and are not kept.

export class LoadSocket {
  private closeInfo: CloseInfo | null = null;
  readonly closed: Promise<CloseInfo>;

  private constructor(
    readonly ws: WebSocket,
    onFrame: (frame: Json) => void,
  ) {
    ws.on('message', (data: Buffer) => onFrame(JSON.parse(data.toString('utf8'))));
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString('utf8') };
        resolve(this.closeInfo);
      });
    });
  }

  /** Opens a socket (a fresh ticket from `proc`); rejects if it does not open within `timeoutMs`. */
  static async open(
    proc: ServerProcess,
    socketPath: string,
    token: string,
    onFrame: (frame: Json) => void,
    timeoutMs = 10_000,
  ): Promise<LoadSocket> {
    const ws = new WebSocket(proc.wsUrl(socketPath, await proc.ticket(token)));
    const socket = new LoadSocket(ws, onFrame);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`socket ${socketPath}: not open in ${timeoutMs} ms`)),
        timeoutMs,
      );
      ws.once('open', () => {
        clearTimeout(timer);
        resolve();
      });
      ws.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
    });
    ws.on('error', () => {
      // A reset after a kill shows as a close (1006).
    });
    return socket;
  }

  /** Opens a room socket and resolves once the server has put it in the room (its first in_chat_users_update). */
  static async joinRoom(
    proc: ServerProcess,
    chatId: string,
    token: string,
    onFrame: (frame: Json) => void,
    timeoutMs = 20_000,
  ): Promise<LoadSocket> {
    let joined: () => void = () => {};
    const inRoom = new Promise<void>((resolve) => {
      joined = resolve;
    });
    const socket = await LoadSocket.open(proc, roomPath(chatId), token, (f) => {
      if (f.type === 'in_chat_users_update') joined();
      onFrame(f);
    });
    const closed = socket.closed.then((c) => Promise.reject(new Error(`room ${chatId} closed: ${c.code}`)));
    await withTimeout(Promise.race([inRoom, closed]), timeoutMs, `joining room ${chatId}`);
    return socket;
  }

  get isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  get isClosed(): boolean {
    return this.closeInfo !== null;
  }

  send(frame: object): boolean {
    if (this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  async close(): Promise<CloseInfo> {
    if (!this.closeInfo && this.ws.readyState !== WebSocket.CLOSED) this.ws.close(1000);
    const timeout = sleep(3000).then(() => {
      this.ws.terminate();
      return this.closed;
    });
    return Promise.race([this.closed, timeout]);
  }
}

/** Waits until `check` is true, polling every `everyMs`; throws with `what` after `timeoutMs`. */
export async function until(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs: number,
  everyMs = 20,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

/** `promise`, or a rejection naming `what` after `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The q-quantile (0..1) of numbers. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}
