import { pngOf } from '@parley/fixtures';
import fc from 'fast-check';
import type { z } from 'zod';
import { garbageSegment, mutate, nastyString, queryString, rawBody } from './fuzz-inputs';
import {
  checkAnswer,
  type FuzzRequest,
  fillPath,
  paramsOf,
  type Route,
  repairWorld,
  routeKey,
  routesOf,
  schemaRecorder,
  send,
  type World,
} from './fuzz-world';
import { anyJson, type Known, zodArbitrary } from './fuzz-zod';
import type { TestApp } from './test-app';

// HTTP cases for the fuzzer: a route of the app, its path parameters, query, body and credentials, generated
// from the zod schemas the route parses with and mutated beyond them. A case names the world's values (a chat
// id, the person's token) by placeholders, filled in when it is sent, so the same seed gives the same cases
// whichever world they meet (the world is made again when a case deletes it).

/** The world's values by name; a case holds `⟦name⟧` in strings and a sentinel number for numbers. */
const STRING_REFS = [
  'privateChat',
  'group',
  'foreignChat',
  'myUsername',
  'otherUsername',
  'strangerUsername',
  'myEmail',
  'otherEmail',
  'myId',
  'otherId',
  'strangerId',
  'myPassword',
  'myMessage',
  'groupMessage',
  'foreignMessage',
] as const;
type StringRef = (typeof STRING_REFS)[number];
const NUMBER_REFS = [
  'myId',
  'otherId',
  'strangerId',
  'myMessage',
  'otherMessage',
  'groupMessage',
  'foreignMessage',
] as const;
type NumberRef = (typeof NUMBER_REFS)[number];
const NUMBER_SENTINEL = -7_000_000;

const ref = (name: string) => `⟦${name}⟧`;

function stringValue(world: World, name: StringRef): string {
  const { me, other, stranger } = world;
  const values: Record<StringRef, string> = {
    privateChat: world.privateChat,
    group: world.group,
    foreignChat: world.foreignChat,
    myUsername: me.user.username,
    otherUsername: other.user.username,
    strangerUsername: stranger.user.username,
    myEmail: me.payload.email,
    otherEmail: other.payload.email,
    myId: String(me.user.id),
    otherId: String(other.user.id),
    strangerId: String(stranger.user.id),
    myPassword: me.payload.password,
    myMessage: String(world.myMessageIds[0]),
    groupMessage: String(world.myMessageIds[2]),
    foreignMessage: String(world.foreignMessageIds[0]),
  };
  return values[name];
}

function numberValue(world: World, name: NumberRef): number {
  const values: Record<NumberRef, number> = {
    myId: world.me.user.id,
    otherId: world.other.user.id,
    strangerId: world.stranger.user.id,
    myMessage: world.myMessageIds[0] as number,
    otherMessage: world.myMessageIds[1] as number,
    groupMessage: world.myMessageIds[2] as number,
    foreignMessage: world.foreignMessageIds[0] as number,
  };
  return values[name];
}

/** What generated strings and numbers may be instead of random ones: the world's, by placeholder. */
export const KNOWN: Known = {
  strings: [...STRING_REFS.map(ref), '👍'],
  numbers: NUMBER_REFS.map((_, i) => NUMBER_SENTINEL - i),
};

/** Fills a case's placeholders with the world's values. */
export function resolveString(world: World, text: string): string {
  return text.replace(/⟦(\w+)⟧/g, (whole, name: string) =>
    name === 'token'
      ? world.me.token
      : (STRING_REFS as readonly string[]).includes(name)
        ? stringValue(world, name as StringRef)
        : whole,
  );
}

export function resolveValue(world: World, value: unknown, depth = 0): unknown {
  if (depth > 40) return value;
  if (typeof value === 'string') return resolveString(world, value);
  if (typeof value === 'number') {
    const index = NUMBER_SENTINEL - value;
    const name = NUMBER_REFS[index];
    return Number.isInteger(index) && name ? numberValue(world, name) : value;
  }
  if (Array.isArray(value)) return value.map((v) => resolveValue(world, v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, {
        value: resolveValue(world, v, depth + 1),
        enumerable: true,
        configurable: true,
        writable: true,
      });
    }
    return out;
  }
  return value;
}

// ------------------------------------------------------------------------------------------------- cases

/** A body: JSON to serialise, bytes as they are, a multipart form, or nothing. */
export type CaseBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown; contentType: string }
  | { kind: 'raw'; bytes: string; base64: boolean; contentType: string | null }
  | { kind: 'multipart'; fields: Record<string, string>; file: 'png' | 'junk' | null; boundary: string };

/** One fuzzed HTTP request, with placeholders; what a regression test keeps. */
export interface HttpCase {
  method: string;
  /** The route's path with its parameters filled (encoded) and the query, with placeholders. */
  path: string;
  auth: 'me' | 'none' | string;
  body: CaseBody;
}

const encodedRef = (name: string) => encodeURIComponent(ref(name));

function paramArbitrary(name: string): fc.Arbitrary<string> {
  const chats = ['privateChat', 'group', 'foreignChat'].map(encodedRef);
  const users = ['myId', 'otherId', 'strangerId'].map(encodedRef);
  const usernames = ['myUsername', 'otherUsername', 'strangerUsername'].map(encodedRef);
  const messages = ['myMessage', 'foreignMessage'].map(encodedRef);
  const everything = [...chats, ...users, ...usernames, ...messages];
  let likely: string[] = everything;
  if (/chat/i.test(name)) likely = chats;
  else if (/message/i.test(name)) likely = messages;
  else if (/user|target/i.test(name)) likely = [...users, ...usernames];
  else if (name === 'emoji') likely = ['👍', '❤️', '😂', 'a', '👍👍', '🏳️‍🌈'].map(encodeURIComponent);
  else if (name === 'name') likely = ['a.png', 'x', 'a.png.exe'];
  else if (name === '*') {
    return fc
      .array(fc.oneof(garbageSegment(), fc.constantFrom('users', 'chats', 'admin', 'ws', '')), {
        maxLength: 4,
      })
      .map((parts) => parts.join('/'));
  }
  return fc.oneof(
    { arbitrary: fc.constantFrom(...likely), weight: 4 },
    { arbitrary: fc.constantFrom(...everything, '1', '2'), weight: 1 },
    { arbitrary: garbageSegment(), weight: 3 },
  );
}

function bodyArbitrary(schemas: readonly z.ZodType[]): fc.Arbitrary<CaseBody> {
  const valid = schemas.length > 0 ? fc.oneof(...schemas.map((s) => zodArbitrary(s, KNOWN))) : anyJson();
  const jsonType = fc.constantFrom('application/json', 'application/json; charset=utf-8');
  const fieldValue = fc.oneof(fc.string({ maxLength: 30 }), nastyString(), fc.constantFrom(...KNOWN.strings));
  return fc.oneof(
    { arbitrary: fc.constant<CaseBody>({ kind: 'none' }), weight: 1 },
    {
      arbitrary: fc.record({ kind: fc.constant('json' as const), value: valid, contentType: jsonType }),
      weight: 4,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('json' as const),
        value: mutate(valid),
        contentType: jsonType,
      }),
      weight: 5,
    },
    {
      arbitrary: rawBody(valid).map(
        ({ bytes, contentType }): CaseBody =>
          typeof bytes === 'string'
            ? { kind: 'raw', bytes, base64: false, contentType }
            : { kind: 'raw', bytes: bytes.toString('base64'), base64: true, contentType },
      ),
      weight: 3,
    },
    {
      arbitrary: fc.record({
        kind: fc.constant('multipart' as const),
        fields: valid.chain((v) =>
          fc
            .dictionary(
              fc.oneof(
                fc.constantFrom('image', 'file', 'first_name', 'bio', 'body'),
                fc.string({ maxLength: 8 }),
              ),
              fieldValue,
              {
                maxKeys: 3,
              },
            )
            .map((extra) => ({
              ...(v && typeof v === 'object' && !Array.isArray(v)
                ? Object.fromEntries(
                    Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x : JSON.stringify(x)]),
                  )
                : {}),
              ...extra,
            })),
        ),
        file: fc.constantFrom<'png' | 'junk' | null>('png', 'junk', null),
        boundary: fc.constantFrom('fuzzboundary', 'x', '----WebKitFormBoundary7MA4YWxkTrZu0gW'),
      }),
      weight: 1,
    },
  );
}

const authArbitrary = (): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.constant('me'), weight: 12 },
    { arbitrary: fc.constant('none'), weight: 1 },
    {
      arbitrary: fc.constantFrom(
        'Bearer ',
        'Bearer x',
        'Bearer ⟦token⟧x',
        'bearer ⟦token⟧',
        'Basic ⟦token⟧',
        'Bearer ⟦token⟧ ⟦token⟧',
        `Bearer ${'a'.repeat(10_000)}`,
        'Bearer %00',
        'Token',
      ),
      weight: 1,
    },
  );

/** The cases for a set of routes, each route with the schemas it was seen parsing with. */
export function httpCases(
  routes: readonly Route[],
  schemasOf: (r: Route) => readonly z.ZodType[],
): fc.Arbitrary<HttpCase> {
  return fc.constantFrom(...routes).chain((route) =>
    fc
      .record({
        params: fc.tuple(...paramsOf(route.path).map(paramArbitrary)),
        query: queryString(
          schemasOf(route).length > 0
            ? fc.oneof(...schemasOf(route).map((s) => zodArbitrary(s, KNOWN)))
            : anyJson(),
        ),
        body:
          route.method === 'GET' || route.method === 'HEAD'
            ? fc.oneof(
                { arbitrary: fc.constant<CaseBody>({ kind: 'none' }), weight: 6 },
                { arbitrary: bodyArbitrary(schemasOf(route)), weight: 1 },
              )
            : bodyArbitrary(schemasOf(route)),
        auth: authArbitrary(),
        method: fc.oneof(
          { arbitrary: fc.constant(route.method), weight: 20 },
          { arbitrary: fc.constantFrom('PATCH', 'OPTIONS', 'TRACE', 'PROPFIND'), weight: 1 },
        ),
      })
      .map(({ params, query, body, auth, method }) => {
        const names = paramsOf(route.path);
        const path = fillPath(route.path, (name) => params[names.indexOf(name)] ?? '');
        return { method, path: query ? `${path}?${query}` : path, auth, body };
      }),
  );
}

// --------------------------------------------------------------------------------------- sending a case

function multipart(fields: Record<string, string>, file: 'png' | 'junk' | null, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '')}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file) {
    const bytes = file === 'png' ? pngOf(4, 4) : Buffer.from([0xde, 0xad, 0xbe, 0xef, 0, 1, 2]);
    for (const name of ['image', 'file']) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        bytes,
        Buffer.from('\r\n'),
      );
    }
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

/** The case as bytes on the wire, the world's values filled in. */
export function requestOf(world: World, c: HttpCase): FuzzRequest {
  const headers: Record<string, string> = {};
  if (c.auth === 'me') headers.authorization = `Bearer ${world.me.token}`;
  else if (c.auth !== 'none') headers.authorization = resolveString(world, c.auth);
  const path = c.path.replace(/%E2%9F%A6(\w+)%E2%9F%A7/g, (_, name: string) =>
    encodeURIComponent(resolveString(world, ref(name))),
  );
  let body: Buffer | string | undefined;
  switch (c.body.kind) {
    case 'none':
      break;
    case 'json':
      body = JSON.stringify(resolveValue(world, c.body.value)) ?? 'null';
      headers['content-type'] = c.body.contentType;
      break;
    case 'raw':
      body = c.body.base64 ? Buffer.from(c.body.bytes, 'base64') : resolveString(world, c.body.bytes);
      if (c.body.contentType !== null) headers['content-type'] = c.body.contentType;
      break;
    case 'multipart':
      body = multipart(
        Object.fromEntries(Object.entries(c.body.fields).map(([k, v]) => [k, resolveString(world, v)])),
        c.body.file,
        c.body.boundary,
      );
      headers['content-type'] = `multipart/form-data; boundary=${c.body.boundary}`;
      break;
  }
  return { method: c.method, path: resolveString(world, path), headers, body };
}

/** Node refuses to send some requests at all (a header or path with characters HTTP forbids): not the server's. */
const unsendable = (err: unknown) =>
  err instanceof Error &&
  [
    'ERR_INVALID_CHAR',
    'ERR_UNESCAPED_CHARACTERS',
    'ERR_INVALID_HTTP_TOKEN',
    'ERR_HTTP_INVALID_HEADER_VALUE',
  ].includes((err as NodeJS.ErrnoException).code ?? '');

/** The running fuzz session over one app: its world, mended after each case. */
export class HttpFuzzer {
  /** Answers by status class, for the run's summary (how many cases got past validation). */
  readonly statuses = new Map<string, number>();

  constructor(
    readonly t: TestApp,
    public world: World,
  ) {}

  /**
   * Sends a case, checks the answer, checks the server still answers, and mends the world. `strict`: the open
   * findings are not let through (the regression tests).
   */
  async run(c: HttpCase, strict = false): Promise<void> {
    const request = requestOf(this.world, c);
    try {
      const answer = await send(this.t.baseUrl, request).catch((err: unknown) => {
        if (unsendable(err)) return null;
        throw new Error(`the request failed (${String(err)}): ${JSON.stringify(c).slice(0, 2000)}`);
      });
      if (answer) {
        const key = `${Math.floor(answer.status / 100)}xx`;
        this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
        checkAnswer(request, answer, strict);
      }
      const health = await send(this.t.baseUrl, { method: 'GET', path: '/api/health', headers: {} });
      if (health.status !== 200)
        throw new Error(`the server stopped answering: /api/health ${health.status}`);
    } finally {
      this.world = await repairWorld(this.t, this.world);
    }
  }
}

/** Every route of the app, and the schemas each parses with, seen by asking each once with the world's ids. */
export async function discoverRoutes(
  fuzzer: HttpFuzzer,
): Promise<{ routes: Route[]; schemas: Map<string, z.ZodType[]> }> {
  const { t } = fuzzer;
  const routes = routesOf(t);
  const schemas = new Map<string, z.ZodType[]>();
  for (const route of routes) {
    const path = fillPath(route.path, (name) => {
      if (/chat/i.test(name)) return encodedRef('group');
      if (/message/i.test(name)) return encodedRef('groupMessage');
      if (/user|target|^id$/i.test(name)) return encodedRef('otherId');
      if (name === 'emoji') return encodeURIComponent('👍');
      return 'x';
    });
    const seen = new Set<z.ZodType>();
    schemaRecorder.recording = seen;
    try {
      const c: HttpCase = {
        method: route.method,
        path,
        auth: 'me',
        body:
          route.method === 'GET' || route.method === 'HEAD'
            ? { kind: 'none' }
            : { kind: 'json', value: {}, contentType: 'application/json' },
      };
      await send(t.baseUrl, requestOf(fuzzer.world, c)).catch((err: unknown) => {
        throw new Error(`discovering ${routeKey(route)}: ${String(err)}`);
      });
    } finally {
      schemaRecorder.recording = null;
      fuzzer.world = await repairWorld(t, fuzzer.world);
    }
    schemas.set(routeKey(route), [...seen]);
  }
  return { routes, schemas };
}
