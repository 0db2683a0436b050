import fc from 'fast-check';
import { afterAll, beforeAll, describe, it, vi } from 'vitest';
import { discoverRoutes, HttpFuzzer, httpCases } from '../helpers/fuzz-http';
import {
  fuzzParameters,
  fuzzTimeoutMs,
  makeWorld,
  type Route,
  routeKey,
  schemaRecorder,
} from '../helpers/fuzz-world';
import { startTestApp, type TestApp } from '../helpers/test-app';

// Every HTTP route the app serves, read from its own route tree, asked with requests generated from the zod
// schemas it parses with and mutated beyond them (wrong kinds, huge and deep values, lone surrogates, fields
// missing and added, bodies that are not JSON or not UTF-8, wrong content types, ids that are not ids),
// signed in as a site admin with chats and messages of their own: never a 5xx, never a hung request or a
// dropped connection, every refusal in DESIGN §5's error shape, and the server answering after each case.
// A short run here (deterministic per seed: FUZZ_SEED, FUZZ_PATH replay what a failure printed); the long one
// is `npm run fuzz` (FUZZ_SECONDS). What it found stays in fuzz-regressions.test.ts.

// The schemas a route parses with are learned by watching platform/validate.ts's parseBody once per route.
vi.mock('../../src/platform/validate', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/platform/validate')>();
  const { schemaRecorder: recorder } = await import('../helpers/fuzz-world');
  return {
    ...original,
    parseBody: ((schema, input) => {
      recorder.record(schema);
      return original.parseBody(schema, input);
    }) as typeof original.parseBody,
  };
});

let t: TestApp;
let fuzzer: HttpFuzzer;
let routes: Route[];
let schemas: Map<string, import('zod').ZodType[]>;

beforeAll(async () => {
  t = await startTestApp({ config: { messageRateLimit: 100_000, socketTicketsPerMinute: 100_000 } });
  fuzzer = new HttpFuzzer(t, await makeWorld(t));
  ({ routes, schemas } = await discoverRoutes(fuzzer));
}, 60_000);
afterAll(async () => {
  console.log(
    `fuzz-http: ${routes?.length} routes; answers ${JSON.stringify(Object.fromEntries(fuzzer?.statuses ?? []))}`,
  );
  await t?.close();
});

const isAdmin = (r: Route) => r.path.startsWith('/api/admin/');
const isAccount = (r: Route) => r.path.startsWith('/api/users/');

describe('fuzzing every HTTP route', () => {
  it('reads the routes and their schemas from the app', () => {
    if (!routes.some((r) => r.path === '/api/chats/:chatId/messages/:messageId/reactions/:emoji/')) {
      throw new Error(`routes not read: ${routes.map(routeKey).join(', ')}`);
    }
    if ((schemas.get('POST /api/chats/group/new/') ?? []).length === 0)
      throw new Error('no schema seen for a group');
    void schemaRecorder;
  });

  const sets: [string, (r: Route) => boolean, number][] = [
    ['accounts', isAccount, 200],
    ['chats, messages, files and the rest', (r) => !isAdmin(r) && !isAccount(r), 250],
    ['the admin API', isAdmin, 100],
  ];
  for (const [name, filter, runs] of sets) {
    it(
      `${name}: no 5xx, no hang, errors in the documented shape`,
      async () => {
        const set = routes.filter(filter);
        await fc.assert(
          fc.asyncProperty(
            httpCases(set, (r) => schemas.get(routeKey(r)) ?? []),
            (c) => fuzzer.run(c),
          ),
          fuzzParameters(runs, 1 / sets.length),
        );
      },
      fuzzTimeoutMs(60_000),
    );
  }
});
