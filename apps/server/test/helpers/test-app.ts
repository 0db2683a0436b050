import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AuthResponse, AuthUser, RegisterPayload } from '@parley/protocol';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { buildApp, type ParleyServer } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import type { AppContext } from '../../src/context';
import { extractCode, GOOD_PASSWORD, newRegistration } from './factories';
import {
  acquireSchema,
  ddlLock,
  dropOwnedSchemas,
  isPostgresUrl,
  migrationLock,
  releaseSchema,
} from './pg-schema';
import { type SmtpSink, startSmtpSink, type WaitOptions } from './smtp-sink';

// The whole server, built in-process exactly as main.ts builds it, listening on a free port, with its own
// temp DATA_DIR, its own database (SQLite file, or a fresh PostgreSQL schema when DATABASE_URL says so)
// and a real SMTP sink catching its mail.

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers and assert on their shape.
export type Json = any;

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: Json;
  text: string;
}

export interface RequestOptions {
  json?: unknown;
  /** Sent as-is (with content-type application/json unless headers say otherwise). */
  rawBody?: string;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestAppOptions {
  /** Environment over the test defaults; a key set to undefined is removed (SMTP_URL: undefined → dev outbox). */
  env?: Record<string, string | undefined>;
  config?: Partial<Config>;
}

export interface SignedUp {
  token: string;
  user: AuthUser;
  payload: RegisterPayload;
}

export interface TestApp {
  server: ParleyServer;
  ctx: AppContext;
  baseUrl: string;
  dataDir: string;
  mail: SmtpSink;
  request(method: string, urlPath: string, options?: RequestOptions): Promise<ApiResponse>;
  get(urlPath: string, token?: string): Promise<ApiResponse>;
  post(urlPath: string, json?: unknown, token?: string): Promise<ApiResponse>;
  put(urlPath: string, json?: unknown, token?: string): Promise<ApiResponse>;
  del(urlPath: string, token?: string): Promise<ApiResponse>;
  /** DELETE /api/users/account/delete/ with the password (every test account's unless told). */
  deleteAccount(token: string, password?: string): Promise<ApiResponse>;
  /** The 6-digit code in the latest mail to `to` (wait for the `count`-th with options.count). */
  codeFor(to: string, options?: WaitOptions): Promise<string>;
  /** Registers (asserting the 200) and returns the payload used. */
  register(overrides?: Partial<RegisterPayload>): Promise<RegisterPayload>;
  /** Registers, reads the code from the caught mail and verifies: a signed-in, activated user. */
  signUpAndVerify(overrides?: Partial<RegisterPayload>): Promise<SignedUp>;
  login(email: string, password: string, rememberMe?: boolean): Promise<ApiResponse>;
  /** Runs DDL of a test's own (dropping a table, say) so it cannot disturb parallel apps' migrations. */
  withDdlLock<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

async function readResponse(res: Response): Promise<ApiResponse> {
  const text = await res.text();
  let body: Json = text;
  if ((res.headers.get('content-type') ?? '').includes('application/json') && text) body = JSON.parse(text);
  return { status: res.status, headers: res.headers, body, text };
}

function expectStatus(res: ApiResponse, status: number, what: string) {
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
}

// PostgreSQL schemas live as long as the test file that uses them (see pg-schema.ts).
const pgUrls = new Set<string>();
afterAll(async () => {
  for (const url of pgUrls) await dropOwnedSchemas(url);
});

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-test-'));
  const mail = await startSmtpSink();
  const env: Record<string, string | undefined> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: process.env.DATABASE_URL,
    ...options.env,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  const pgUrl = isPostgresUrl(env.DATABASE_URL) ? env.DATABASE_URL : null;
  if (pgUrl) pgUrls.add(pgUrl);
  // A test that changes tables by hand gets its schema dropped rather than recycled.
  let schemaReusable = true;
  const withDdlLock = <T>(fn: () => Promise<T>): Promise<T> => {
    if (!pgUrl) return fn();
    schemaReusable = false;
    return ddlLock(pgUrl, fn);
  };

  const schema = pgUrl ? await acquireSchema(pgUrl) : null;
  const config = loadConfig(env, {
    argonMemoryKiB: 1024,
    databaseSchema: schema,
    // No built web app: unknown paths are plain 404s whatever apps/web/dist holds.
    webDist: path.join(dataDir, 'no-web'),
    ...options.config,
  });
  let server: ParleyServer | null = null;
  let baseUrl: string;
  try {
    server = pgUrl ? await migrationLock(pgUrl, () => buildApp(config)) : await buildApp(config);
    baseUrl = await server.start();
  } catch (err) {
    await server?.stop().catch(() => {});
    await mail.close();
    if (schema && pgUrl) await releaseSchema(pgUrl, schema, false);
    await fs.rm(dataDir, { recursive: true, force: true });
    throw err;
  }

  const request = async (method: string, urlPath: string, o: RequestOptions = {}) => {
    const headers: Record<string, string> = { ...o.headers };
    let body: string | undefined;
    if (o.json !== undefined || o.rawBody !== undefined) {
      body = o.rawBody ?? JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    return readResponse(await fetch(`${baseUrl}${urlPath}`, { method, headers, body }));
  };

  const t: TestApp = {
    server,
    ctx: server.ctx,
    baseUrl,
    dataDir,
    mail,
    request,
    get: (p, token) => request('GET', p, { token }),
    post: (p, json, token) => request('POST', p, { json: json ?? {}, token }),
    put: (p, json, token) => request('PUT', p, { json: json ?? {}, token }),
    del: (p, token) => request('DELETE', p, { token }),
    deleteAccount: (token, password = GOOD_PASSWORD) =>
      request('DELETE', '/api/users/account/delete/', { token, json: { password } }),
    async codeFor(to, waitOptions) {
      return extractCode((await mail.waitFor(to, waitOptions)).text);
    },
    async register(overrides) {
      const payload = newRegistration(overrides);
      expectStatus(await t.post('/api/users/register/', payload), 200, 'register');
      return payload;
    },
    async signUpAndVerify(overrides) {
      const payload = await t.register(overrides);
      const code = await t.codeFor(payload.email);
      const res = await t.post('/api/users/email/verify/signup/', {
        email: payload.email,
        verification_code: code,
      });
      expectStatus(res, 200, 'verify signup');
      const { token, ...user } = res.body as AuthResponse;
      return { token, user, payload };
    },
    withDdlLock,
    login: (email, password, rememberMe) =>
      t.post('/api/users/login/', {
        email,
        password,
        ...(rememberMe === undefined ? {} : { remember_me: rememberMe }),
      }),
    async close() {
      try {
        await server.stop();
      } finally {
        await mail.close();
        if (schema && pgUrl) await releaseSchema(pgUrl, schema, schemaReusable);
        await fs.rm(dataDir, { recursive: true, force: true });
      }
    },
  };
  return t;
}

/**
 * A fresh app for every test of the file (fresh database, mail and rate limits), closed after it.
 * Returns a getter: call it inside a test.
 */
export function useTestApp(options?: TestAppOptions): () => TestApp {
  let current: TestApp | null = null;
  beforeEach(async () => {
    current = await startTestApp(options);
  });
  afterEach(async () => {
    const app = current;
    current = null;
    await app?.close();
  });
  return () => {
    if (!current) throw new Error('useTestApp: no app outside a test');
    return current;
  };
}
