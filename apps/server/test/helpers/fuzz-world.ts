import http from 'node:http';
import type fc from 'fast-check';
import type { z } from 'zod';
import type { Known } from './fuzz-zod';
import type { Json, SignedUp, TestApp } from './test-app';

// What the fuzz tests share: the world they run in (three people, a private chat and a group with messages,
// one chat the fuzzing person is not in), the routes read from the app itself, a raw HTTP request that may
// carry any bytes, and the checks every answer must pass.

/** How long one fuzzed request may take before it counts as hung (a busy machine, a 1 MiB body). */
export const REQUEST_TIMEOUT_MS = 20_000;

/** The run's length: FUZZ_SECONDS for the long run (`npm run fuzz`), else `runs` cases, the same per seed. */
export function fuzzParameters(runs: number, share = 1): fc.Parameters<unknown> {
  const seconds = Number(process.env.FUZZ_SECONDS);
  const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);
  const path = process.env.FUZZ_PATH;
  const common = { seed, path, endOnFailure: path === undefined ? undefined : true, verbose: 1 } as const;
  if (seconds > 0) {
    return {
      ...common,
      numRuns: Number.MAX_SAFE_INTEGER,
      interruptAfterTimeLimit: seconds * 1000 * share,
      markInterruptAsFailure: false,
    };
  }
  return { ...common, numRuns: runs };
}

/** The test's own ceiling: the long run's time plus room to shrink a failure, or the short run's. */
export function fuzzTimeoutMs(shortMs: number): number {
  const seconds = Number(process.env.FUZZ_SECONDS);
  return seconds > 0 ? seconds * 1000 + 600_000 : shortMs;
}

// ---------------------------------------------------------------------------------------------- the world

export interface World {
  me: SignedUp;
  other: SignedUp;
  stranger: SignedUp;
  privateChat: string;
  group: string;
  /** A chat between the other two, which `me` is not in. */
  foreignChat: string;
  myMessageIds: number[];
  foreignMessageIds: number[];
  known: Known;
}

async function expectOk(res: { status: number; text: string; body: Json }, what: string): Promise<Json> {
  if (res.status !== 200) throw new Error(`${what}: ${res.status} ${res.text}`);
  return res.body;
}

async function sendMessage(t: TestApp, userId: number, chatId: string, body: string): Promise<number> {
  const { message } = await t.ctx.messages.send(userId, chatId, { body });
  return message.id;
}

/** A fresh world: `me` is a site admin (so the admin API is reached too). */
export async function makeWorld(t: TestApp): Promise<World> {
  clearRateLimits(t);
  // A case may have closed sign-ups (the admin API's settings): the world's people sign up all the same.
  await t.ctx.db.updateTable('site_settings').set({ signups: 'open' }).execute();
  const me = await t.signUpAndVerify({ first_name: 'Fuzz' });
  const other = await t.signUpAndVerify({ first_name: 'Other' });
  const stranger = await t.signUpAndVerify({ first_name: 'Stranger' });
  await t.ctx.db.updateTable('users').set({ is_site_admin: 1 }).where('id', '=', me.user.id).execute();
  const chatOf = async (token: string, target: number) =>
    (await expectOk(await t.get(`/api/chats/start/${target}/`, token), 'start chat')).chat_id as string;
  const privateChat = await chatOf(me.token, other.user.id);
  const foreignChat = await chatOf(other.token, stranger.user.id);
  const group = (
    await expectOk(await t.post('/api/chats/group/new/', { group_name: 'Fuzz' }, me.token), 'group')
  ).chat_id as string;
  await expectOk(
    await t.post(`/api/chats/${group}/members/`, { user_id: other.user.id }, me.token),
    'add member',
  );
  const myMessageIds = [
    await sendMessage(t, me.user.id, privateChat, 'hello'),
    await sendMessage(t, other.user.id, privateChat, 'hi @Fuzz'),
    await sendMessage(t, me.user.id, group, 'group hello'),
  ];
  const foreignMessageIds = [await sendMessage(t, other.user.id, foreignChat, 'not for Fuzz')];
  const people = [me, other, stranger];
  const known: Known = {
    strings: [
      privateChat,
      group,
      foreignChat,
      ...people.flatMap((p) => [p.user.username, p.payload.email, String(p.user.id)]),
      me.payload.password,
      '👍',
    ],
    numbers: [...people.map((p) => p.user.id), ...myMessageIds, ...foreignMessageIds],
  };
  return { me, other, stranger, privateChat, group, foreignChat, myMessageIds, foreignMessageIds, known };
}

/** The in-memory rate limits forgotten, so a long run keeps reaching past them (Redis limits stay). */
export function clearRateLimits(t: TestApp): void {
  for (const limiter of [t.ctx.limiter, t.ctx.messageLimiter] as unknown[]) {
    const windows = (limiter as { windows?: unknown } | undefined)?.windows;
    if (windows instanceof Map) windows.clear();
  }
}

/**
 * Puts the world back after a case that changed it (signed out, deactivated, deleted a chat or a person): a new
 * session and reactivation when that is enough, else a new world.
 */
export async function repairWorld(t: TestApp, world: World): Promise<World> {
  clearRateLimits(t);
  const ids = [world.me, world.other, world.stranger].map((p) => p.user.id);
  const users = await t.ctx.db
    .selectFrom('users')
    .select(['id', 'deactivated_at', 'is_site_admin', 'is_activated'])
    .where('id', 'in', ids)
    .execute();
  if (users.length !== ids.length) return makeWorld(t);
  if (
    users.some(
      (u) => u.deactivated_at !== null || !u.is_site_admin !== (u.id !== world.me.user.id) || !u.is_activated,
    )
  ) {
    await t.ctx.db
      .updateTable('users')
      .set({ deactivated_at: null, is_activated: 1 })
      .where('id', 'in', ids)
      .execute();
    await t.ctx.db
      .updateTable('users')
      .set({ is_site_admin: 1 })
      .where('id', '=', world.me.user.id)
      .execute();
  }
  if (!(await t.ctx.sessions.verify(world.me.token))) {
    world.me = { ...world.me, token: await t.ctx.sessions.create(world.me.user.id, true) };
  }
  const my = await t.get('/api/chats/my/', world.me.token);
  if (my.status !== 200) return makeWorld(t);
  const chatIds = new Set((my.body.chats as { chat_id: string }[]).map((c) => c.chat_id));
  if (!chatIds.has(world.privateChat) || !chatIds.has(world.group)) return makeWorld(t);
  return world;
}

// --------------------------------------------------------------------------------------------- the routes

export interface Route {
  method: string;
  /** Fastify's path: `:name` parameters, `*` a wildcard. */
  path: string;
}

/**
 * Every route the app serves, read from Fastify's own route tree (so a new route is fuzzed without editing the
 * fuzzer), HEAD and OPTIONS included where Fastify serves them.
 */
export function routesOf(t: TestApp): Route[] {
  const tree = t.server.app.printRoutes({ commonPrefix: false });
  const routes: Route[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^((?:[│ ] {3})*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method) routes.push({ method, path: stack.join('') });
    }
  }
  if (routes.length < 20) throw new Error(`routesOf: only ${routes.length} routes read from:\n${tree}`);
  return routes;
}

export const routeKey = (r: Route) => `${r.method} ${r.path}`;

/** The route's path with each parameter replaced by the matching value of `values` (already encoded). */
export function fillPath(path: string, values: (name: string) => string): string {
  const filled = path.replace(/:(\w+)/g, (_, name: string) => values(name)).replace(/\*$/, () => values('*'));
  return filled.startsWith('/') ? filled : `/${filled}`;
}

/** The parameters a route's path has. */
export const paramsOf = (path: string): string[] => [
  ...[...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string),
  ...(path.endsWith('*') ? ['*'] : []),
];

// ----------------------------------------------------------------------------------------------- requests

export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | string;
}

export interface FuzzAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/** Sends the request as given (any bytes, any method); rejects on a reset, a hang or a broken answer. */
export function send(baseUrl: string, request: FuzzRequest): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(baseUrl);
    const headers = { ...request.headers };
    if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
    const req = http.request({
      host: url.hostname,
      port: url.port,
      method: request.method,
      path: request.path,
      headers,
      agent: false,
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms: the request hung`));
    }, REQUEST_TIMEOUT_MS);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        });
      });
    });
    req.end(request.body);
  });
}

/** A request printed for a failure message (long bodies cut). */
export function describeRequest(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : String(request.body);
  const shown = body.length > 400 ? `${body.slice(0, 400)}… (${body.length} chars)` : body;
  return `${request.method} ${request.path.slice(0, 300)} ${JSON.stringify(request.headers)} ${JSON.stringify(shown)}`;
}

// ---------------------------------------------------------------------------------------------- the checks

/**
 * Findings whose fix has not landed yet (none now): an answer matching one
 * is let through so the fuzzer keeps looking past it; fuzz-regressions.test.ts keeps each as a test that fails
 * once it is fixed, so the entry is then removed.
 */
export const OPEN_FINDINGS: {
  what: string;
  matches: (request: FuzzRequest, answer: FuzzAnswer) => boolean;
}[] = [];

const isStringList = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string');

/**
 * What every answer must be: never a 5xx; a refusal is JSON in DESIGN §5's shape (`{detail}` — a text, or for a
 * sign-in's refusals an object — and/or `{field: [messages]}`) with no stack trace or SQL in it.
 */
export function checkAnswer(request: FuzzRequest, answer: FuzzAnswer, strict = false): void {
  const what = () => `${describeRequest(request)}\n→ ${answer.status} ${answer.text.slice(0, 500)}`;
  if (!strict && OPEN_FINDINGS.some((f) => f.matches(request, answer))) return;
  if (answer.status >= 500) throw new Error(`server error: ${what()}`);
  if (/\n\s+at |SQLITE_|node_modules|syntax error at or near|violates .* constraint/.test(answer.text)) {
    throw new Error(`internals in the answer: ${what()}`);
  }
  if (answer.status < 400 || request.method === 'HEAD') return;
  if (!String(answer.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new Error(`a refusal that is not JSON: ${what()}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new Error(`a refusal with a broken JSON body: ${what()}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || Object.keys(body).length === 0) {
    throw new Error(`a refusal not in the error shape: ${what()}`);
  }
  for (const [key, value] of Object.entries(body)) {
    const ok =
      key === 'detail'
        ? typeof value === 'string' || (typeof value === 'object' && value !== null && !Array.isArray(value))
        : isStringList(value);
    if (!ok) throw new Error(`a refusal not in the error shape (field ${JSON.stringify(key)}): ${what()}`);
  }
}

// ------------------------------------------------------------------------------------------ schemas seen

/** The zod schemas the routes parsed with while `recording` (platform/validate.ts's parseBody, wrapped). */
export const schemaRecorder = {
  recording: null as Set<z.ZodType> | null,
  record(schema: z.ZodType) {
    schemaRecorder.recording?.add(schema);
  },
};
