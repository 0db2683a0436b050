import { type ChildProcess, spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AuthResponse, RegisterPayload } from '@parley/protocol';
import { extractCode, newRegistration } from './factories';
import type { ServerStore } from './server-store';
import type { ApiResponse, Json, SignedUp } from './test-app';
import { sleep } from './waits';
import { WsClient } from './ws-client';

// Real Parley server processes for the scale-out and fault tests: `node --import tsx src/main.ts` exactly as an
// operator starts it, configured only through its environment, on a free port, killed with SIGKILL or stopped
// with SIGTERM. Every process started here is killed when the test worker exits, whatever happened.

const here = path.dirname(fileURLToPath(import.meta.url));
const serverDir = path.resolve(here, '../..');

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

export interface RequestOptions {
  json?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

/**
 * Parley at an address: a process of its own, or the proxy in front of several (the rolling-restart test
 * talks to nginx). Requests, socket tickets and the dev outbox, as a client sees them.
 */
export class Endpoint {
  constructor(
    readonly baseUrl: string,
    readonly label: string,
  ) {}

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
}

export class ServerProcess extends Endpoint {
  private readonly logTail: string[] = [];
  /** Parsed pino lines of level error or worse (50+), for "nothing went wrong" checks. */
  readonly errors: Json[] = [];
  readonly exited: Promise<ExitInfo>;
  private exitInfo: ExitInfo | null = null;

  constructor(
    readonly child: ChildProcess,
    readonly port: number,
    label: string,
    readonly dataDir: string,
  ) {
    super(`http://127.0.0.1:${port}`, label);
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
