import { createHash } from 'node:crypto';
import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { newEmail } from '../helpers/factories';
import { type TestApp, useTestApp } from '../helpers/test-app';

// POST /api/users/login/ and /api/users/logout/ (SPEC §3, §7, §8; DESIGN §1 remember me, §7 tokens).
const app = useTestApp();
const HOUR = 3600_000;
const DAY = 24 * HOUR;

const sha256 = (token: string) => createHash('sha256').update(token).digest('hex');
const sessionOf = (t: TestApp, token: string) =>
  t.ctx.db.selectFrom('sessions').selectAll().where('token_hash', '=', sha256(token)).executeTakeFirst();

describe('login', () => {
  it('answers a token plus the flat user fields', async () => {
    const { user, payload } = await app().signUpAndVerify();
    const res = await app().login(payload.email, payload.password);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), ...user });
    expect(res.text).not.toMatch(/password|argon/i);

    const profile = await app().get('/api/users/profile/', res.body.token);
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(user.id);
  });

  it('takes the email in any case and gives a new token per login', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const a = await app().login(payload.email.toUpperCase(), payload.password);
    const b = await app().login(payload.email, payload.password);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(new Set([token, a.body.token, b.body.token]).size).toBe(3);
    expect((await app().get('/api/users/profile/', a.body.token)).status).toBe(200);
    expect((await app().get('/api/users/profile/', b.body.token)).status).toBe(200);
  });

  it('refuses an unverified account with 403 and a detail that asks for verification', async () => {
    const payload = await app().register();
    const res = await app().login(payload.email, payload.password);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      detail: {
        requires_verification: true,
        email: payload.email,
        message: 'Please verify your email address before logging in.',
      },
    });
    expect(await app().ctx.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });

  it('does not reveal an unverified account to a wrong password', async () => {
    const payload = await app().register();
    const res = await app().login(payload.email, 'wrong-password-1');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCredentials });
  });

  it('refuses a wrong password with 400 and a detail', async () => {
    const { payload } = await app().signUpAndVerify();
    const res = await app().login(payload.email, `${payload.password}x`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCredentials });
  });

  it('answers an unknown email exactly as a wrong password', async () => {
    const { payload } = await app().signUpAndVerify();
    const wrong = await app().login(payload.email, 'not-the-password');
    const unknown = await app().login(newEmail(), 'not-the-password');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses missing fields as field errors', async () => {
    const res = await app().post('/api/users/login/', {});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['email', 'password']);
  });

  it('keeps a session 30 days with remember me (the default) and 24 hours without', async () => {
    const { payload } = await app().signUpAndVerify();
    const byDefault = await app().login(payload.email, payload.password);
    const remembered = await app().login(payload.email, payload.password, true);
    const short = await app().login(payload.email, payload.password, false);

    const lifetime = async (token: string) => {
      const row = await sessionOf(app(), token);
      if (!row) throw new Error('no session row for the token');
      return { ms: Date.parse(row.expires_at) - Date.parse(row.created_at), remember: row.remember };
    };
    const d = await lifetime(byDefault.body.token);
    const r = await lifetime(remembered.body.token);
    const s = await lifetime(short.body.token);
    expect(d.ms).toBeCloseTo(30 * DAY, -5);
    expect(r.ms).toBeCloseTo(30 * DAY, -5);
    expect(r.remember).toBe(1);
    expect(s.ms).toBeCloseTo(24 * HOUR, -5);
    expect(s.remember).toBe(0);
    expect(Date.parse((await sessionOf(app(), short.body.token))?.expires_at ?? '')).toBeLessThan(
      Date.now() + 24 * HOUR + 60_000,
    );
  });

  it('refuses a session token once it has expired', async () => {
    const { token } = await app().signUpAndVerify();
    await app()
      .ctx.db.updateTable('sessions')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', sha256(token))
      .execute();
    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
  });

  it('stores tokens only as SHA-256 hashes', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const second = (await app().login(payload.email, payload.password)).body.token as string;

    const rows = await app().ctx.db.selectFrom('sessions').selectAll().execute();
    expect(rows).toHaveLength(2);
    const dump = JSON.stringify(rows);
    for (const t of [token, second]) {
      expect(dump).not.toContain(t);
      expect(rows.map((r) => r.token_hash)).toContain(sha256(t));
    }
  });
});

describe('logout', () => {
  it('revokes the token it is called with, and only that one', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const other = (await app().login(payload.email, payload.password)).body.token as string;

    const res = await app().post('/api/users/logout/', {}, token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: expect.any(String) });

    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
    expect((await app().post('/api/users/logout/', {}, token)).status).toBe(401);
    expect((await app().get('/api/users/profile/', other)).status).toBe(200);
    expect(await sessionOf(app(), token)).toBeUndefined();
  });

  it('needs a token', async () => {
    const res = await app().post('/api/users/logout/', {});
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});
