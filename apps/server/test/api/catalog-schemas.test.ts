import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { apiSections } from '../../src/api-catalog';
import { discoverRoutes, HttpFuzzer } from '../helpers/fuzz-http';
import { makeWorld, routeKey } from '../helpers/fuzz-world';
import { startTestApp, type TestApp } from '../helpers/test-app';

// The catalog names the schemas each route parses: asked once each with the fuzzers' world (a site admin with
// chats and messages), a route must parse its body and query with the schemas its entry names, so the published
// description cannot drift from the code. (Routes whose handler refuses before parsing are not told apart.)

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
let parsed: Map<string, z.ZodType[]>;

beforeAll(async () => {
  t = await startTestApp({ config: { messageRateLimit: 100_000, socketTicketsPerMinute: 100_000 } });
  ({ schemas: parsed } = await discoverRoutes(new HttpFuzzer(t, await makeWorld(t))));
}, 120_000);
afterAll(() => t?.close());

describe('the route catalog', () => {
  it('names the schemas each route parses its body and query with', () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const route of apiSections.flatMap((s) => s.routes)) {
      const seen = parsed.get(routeKey(route)) ?? [];
      for (const [what, schema] of [
        ['body', route.body],
        ['query', route.query],
      ] as const) {
        if (!(schema instanceof z.ZodType) || seen.length === 0) continue;
        checked++;
        if (!seen.includes(schema))
          wrong.push(`${routeKey(route)}: its ${what} is not the schema it parses with`);
      }
    }
    expect(wrong).toEqual([]);
    expect(checked).toBeGreaterThan(40);
  });
});
