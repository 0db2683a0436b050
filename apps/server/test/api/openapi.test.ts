import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { apiSections } from '../../src/api-catalog';
import { type ApiRoute, errorsOf, openApiPath } from '../../src/platform/openapi';
import { routesOf } from '../helpers/fuzz-world';
import { type TestApp, useTestApp } from '../helpers/test-app';

// The published API against the app itself: every route under /api/ and /hooks/ the app registers has a catalog
// entry and every entry a route; /api/openapi.json is valid OpenAPI 3.1; what an entry says of its auth is what
// the route does; /api/docs/ is served as files the CSP allows.

const app = useTestApp();
const entries: ApiRoute[] = apiSections.flatMap((s) => s.routes);
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
const published = (path: string) => /^\/(api|hooks)\//.test(path) && !path.endsWith('*');

/** What the searches are asked, which a blank query would not get past. */
const SEARCHES: Record<string, string> = {
  '/api/search/messages/': '?q=hello',
  '/api/users/search/': '?q=ada',
};

/** The route's path with each parameter filled with a value that names nothing. */
const filled = (path: string) =>
  path.replace(/:(\w+)/g, (_, name: string) => (name === 'emoji' ? '%F0%9F%91%8D' : '1'));

async function token(t: TestApp, session: string, scopes: string[]): Promise<string> {
  const res = await t.post('/api/users/tokens/', { name: 'catalog', scopes }, session);
  expect(res.status, res.text).toBe(201);
  return res.body.token as string;
}

describe('the route catalog', () => {
  it('has an entry for every route the app serves under /api/ and /hooks/, and no other', () => {
    const served = new Set(
      routesOf(app())
        .filter((r) => r.method !== 'HEAD' && published(r.path))
        .map(key),
    );
    const listed = entries.map(key);
    expect(listed.length, 'an entry listed twice').toBe(new Set(listed).size);
    expect(
      [...served].filter((k) => !listed.includes(k)),
      'routes without a catalog entry',
    ).toEqual([]);
    expect(
      listed.filter((k) => !served.has(k)),
      'entries naming no route',
    ).toEqual([]);
  });

  it("says of each route's auth what the route does", async () => {
    const t = app();
    // The first person of a server is its site admin.
    const admin = await t.signUpAndVerify();
    const adminToken = await token(t, admin.token, ['read', 'write']);
    const person = await t.signUpAndVerify();
    const read = await token(t, person.token, ['read']);
    const write = await token(t, person.token, ['read', 'write']);
    const wrong: string[] = [];
    const expectStatus = async (
      route: ApiRoute,
      as: string | undefined,
      check: (status: number) => boolean,
      what: string,
    ) => {
      const res = await t.request(route.method, filled(route.path), {
        token: as,
        ...(route.method === 'GET' ? {} : { json: {} }),
      });
      if (!check(res.status)) wrong.push(`${key(route)} ${what}: ${res.status} ${res.text.slice(0, 120)}`);
    };
    for (const route of entries) {
      if (route.auth === 'session' || route.auth === 'token')
        await expectStatus(route, undefined, (s) => s === 401, 'without credentials, 401');
      if (route.auth === 'session') await expectStatus(route, write, (s) => s === 403, 'to a token, 403');
      if (route.auth === 'token' && route.method !== 'GET' && !route.reading)
        await expectStatus(route, read, (s) => s === 403, 'to a read token, 403');
      if (route.auth === 'token')
        await expectStatus(route, write, (s) => s !== 401 && s !== 403, 'a write token passes');
      if (route.auth === 'admin') {
        await expectStatus(route, undefined, (s) => s === 404, 'without credentials, 404');
        await expectStatus(route, person.token, (s) => s === 404, "to a person who isn't an admin, 404");
        await expectStatus(route, adminToken, (s) => s === 403, "to an admin's token, 403");
      }
      if (route.auth === 'none')
        await expectStatus(route, undefined, (s) => s !== 401, 'no credentials needed');
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('answers each parameterless GET in the shape its entry names', async () => {
    const t = app();
    const person = await t.signUpAndVerify();
    const login = await t.login(person.payload.email, person.payload.password);
    const loginEntry = entries.find((r) => key(r) === 'POST /api/users/login/');
    const misfits: string[] = [];
    const fits = (route: ApiRoute, status: number, body: unknown) => {
      const schema = route.responses[status];
      if (!(schema instanceof z.ZodType)) return;
      const parsed = schema.safeParse(body);
      if (!parsed.success) misfits.push(`${key(route)}: ${parsed.error.message.slice(0, 300)}`);
    };
    if (loginEntry) fits(loginEntry, login.status, login.body);
    let asked = 0;
    for (const route of entries) {
      const query = SEARCHES[route.path];
      const required =
        !query &&
        Object.values(route.query?.shape ?? {}).some((s) => !(s as z.ZodType).safeParse(undefined).success);
      const answered = route.responses[200] instanceof z.ZodType;
      if (route.method !== 'GET' || route.auth === 'admin' || /:\w/.test(route.path) || required || !answered)
        continue;
      const res = await t.get(`${route.path}${query ?? ''}`, person.token);
      expect(res.status, `${key(route)} ${res.text.slice(0, 200)}`).toBeLessThan(300);
      fits(route, res.status, res.body);
      asked++;
    }
    expect(misfits).toEqual([]);
    expect(asked).toBeGreaterThan(15);
  });

  it('lists each refusal the auth implies', () => {
    for (const route of entries) {
      const errors = errorsOf(route);
      if (route.auth === 'session' || route.auth === 'token') expect(errors, key(route)).toContain(401);
      if (route.auth === 'admin') expect(errors, key(route)).toContain(404);
    }
  });
});

describe('GET /api/openapi.json', () => {
  it('is valid OpenAPI 3.1 naming every route, and each reference resolves', async () => {
    const t = app();
    const res = await t.get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const doc = res.body;
    const validator = new Validator();
    const verdict = await validator.validate(doc);
    expect(verdict, JSON.stringify(verdict.errors)?.slice(0, 2000)).toMatchObject({ valid: true });
    expect(validator.version).toBe('3.1');
    for (const route of entries) {
      const path = openApiPath(route.path);
      expect(doc.paths[path]?.[route.method.toLowerCase()], key(route)).toBeDefined();
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(refs.filter((name) => !doc.components.schemas[name as string])).toEqual([]);
    // The token routes say which scope they need.
    const send = doc.paths['/api/chats/{chat_id}/messages/'].post;
    expect(send.security).toEqual([{ session: [] }, { token: ['write'] }]);
    expect(Object.keys(send.responses)).toEqual(
      expect.arrayContaining(['200', '201', '400', '401', '403', '404', '429']),
    );
    expect(doc.paths['/api/users/tokens/'].post.security).toEqual([{ session: [] }]);
  });
});

describe('GET /api/docs/', () => {
  it('is a page with no inline script, its viewer served as files (gzipped when asked)', async () => {
    const t = app();
    const redirect = await fetch(`${t.baseUrl}/api/docs`, { redirect: 'manual' });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get('location')).toBe('/api/docs/');
    const page = await t.get('/api/docs/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const src of [...page.text.matchAll(/(?:src|href)="\.\/([^"]+)"/g)].map((m) => m[1])) {
      const file = await t.request('GET', `/api/docs/${src}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(file.status, src).toBe(200);
      expect(file.headers.get('content-type'), src).toMatch(/^text\/(javascript|css)/);
    }
    expect((await t.get('/api/docs/package.json')).status).toBe(404);
    expect((await t.get('/api/docs/..%2Fpackage.json')).status).toBe(404);
  });
});
