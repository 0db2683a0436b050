import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newRegistration } from '../helpers/factories';
import { type ApiResponse, useTestApp } from '../helpers/test-app';

// Bearer tokens on every protected endpoint, and error bodies that never leak internals (DESIGN §5, §7).
const app = useTestApp();

const PROTECTED: [method: string, path: string, body?: unknown][] = [
  ['GET', '/api/users/profile/'],
  ['GET', '/api/users/profile/settings/'],
  ['PUT', '/api/users/profile/settings/', { read_receipt: false }],
  ['PUT', '/api/users/email/update/', { email: 'new@example.test' }],
  ['POST', '/api/users/email/verify/code/', { verification_code: '123456' }],
  ['POST', '/api/users/logout/', {}],
  ['DELETE', '/api/users/account/delete/'],
];

/** No stack frames, file paths, SQL or driver names in an answer. */
function expectNoInternals(res: ApiResponse) {
  expect(res.text).not.toMatch(/\bat .+:\d+:\d+|\.ts\b|\.js\b|node_modules|stack/i);
  expect(res.text).not.toMatch(/\b(select|insert|update|delete|from|where)\b.*\b(users|sessions|codes)\b/i);
  expect(res.text).not.toMatch(/sqlite|postgres|kysely|relation|constraint|syntax/i);
}

describe('bearer token', () => {
  it.each(PROTECTED)('%s %s is 401 {detail} without a token', async (method, path, body) => {
    const res = await app().request(method, path, { json: body });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it.each([
    ['a garbage token', 'Bearer not-a-real-token'],
    ['a well-formed unknown token', `Bearer ${Buffer.alloc(32, 7).toString('base64url')}`],
    ['an overlong token', `Bearer ${'a'.repeat(5000)}`],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['an empty bearer', 'Bearer '],
  ])('is 401 with %s', async (_what, authorization) => {
    const { token } = await app().signUpAndVerify();
    const res = await app().request('GET', '/api/users/profile/', { headers: { authorization } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expectNoInternals(res);
    // The real token still works, so the 401 was about the header.
    expect((await app().get('/api/users/profile/', token)).status).toBe(200);
  });

  it('accepts the token with the Token scheme as well', async () => {
    const { token } = await app().signUpAndVerify();
    const res = await app().request('GET', '/api/users/profile/', {
      headers: { authorization: `Token ${token}` },
    });
    expect(res.status).toBe(200);
  });
});

describe('error bodies', () => {
  it('answers malformed JSON with 400 {detail} and nothing more', async () => {
    const res = await app().request('POST', '/api/users/register/', { rawBody: '{"username": "ada",' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expectNoInternals(res);
    expect(res.text).not.toMatch(/JSON|Unexpected|position/);
  });

  it('answers an unsupported content type with 415 {detail}', async () => {
    const res = await app().request('POST', '/api/users/login/', {
      rawBody: '<login/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status).toBe(415);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expectNoInternals(res);
  });

  it('answers a body that is not an object with 400 and no internals', async () => {
    for (const rawBody of ['[]', '"text"', '42', 'null']) {
      const res = await app().request('POST', '/api/users/login/', { rawBody });
      expect(res.status).toBe(400);
      expectNoInternals(res);
    }
  });

  it('answers an unknown API path with 404 {detail}', async () => {
    const res = await app().get('/api/users/nothing-here/');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });

  it('answers a database failure with a generic 500: no SQL, no stack', async () => {
    await app().withDdlLock(() => sql`DROP TABLE codes`.execute(app().ctx.db));
    const res = await app().post('/api/users/register/', newRegistration());
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expectNoInternals(res);
    expect(res.text).not.toContain('codes');
  });

  it('answers an oversized body with 413', async () => {
    const res = await app().request('POST', '/api/users/login/', {
      json: { email: 'a@example.test', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ detail: expect.any(String) });
    expectNoInternals(res);
  });
});
