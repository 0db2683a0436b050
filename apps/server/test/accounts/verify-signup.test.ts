import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { newEmail, wrongCode } from '../helpers/factories';
import { useTestApp } from '../helpers/test-app';

// POST /api/users/email/verify/signup/ and /api/users/email/resend/signup/ (SPEC §7; DESIGN §7 codes).
const app = useTestApp();
const verify = (email: string, verification_code: string) =>
  app().post('/api/users/email/verify/signup/', { email, verification_code });
const resend = (email: string) => app().post('/api/users/email/resend/signup/', { email });

describe('sign-up verification', () => {
  it('signs the user in with the right code: a token plus the flat user fields', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);

    const res = await verify(payload.email, code);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      token: expect.any(String),
      id: expect.any(Number),
      username: payload.username,
      email: payload.email,
      first_name: payload.first_name,
      last_name: payload.last_name,
      displayname: `${payload.first_name} ${payload.last_name}`,
      avatar: null,
      is_activated: true,
      is_blue_verified: false,
      // The first account on a fresh server is its site admin; which test comes first varies.
      is_site_admin: expect.any(Boolean),
    });
    // 256 random bits, base64url.
    expect(Buffer.from(res.body.token, 'base64url')).toHaveLength(32);

    const profile = await app().get('/api/users/profile/', res.body.token);
    expect(profile.status).toBe(200);
    expect(profile.body.username).toBe(payload.username);

    const login = await app().login(payload.email, payload.password);
    expect(login.status).toBe(200);
  });

  it('accepts the address in another case', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    expect((await verify(payload.email.toUpperCase(), code)).status).toBe(200);
  });

  it('refuses a wrong code and leaves the account unverified', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);

    const res = await verify(payload.email, wrongCode(code));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
    expect((await app().login(payload.email, payload.password)).status).toBe(403);
  });

  it('refuses a code that is not 6 digits with a field error', async () => {
    const payload = await app().register();
    const res = await verify(payload.email, '12ab');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ verification_code: ['Verification code must be 6 digits'] });
  });

  it('refuses any code for an unknown address', async () => {
    const res = await verify(newEmail(), '123456');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
  });

  it('refuses the right code once it has expired', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    await app()
      .ctx.db.updateTable('codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .execute();

    const res = await verify(payload.email, code);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
  });

  it('issues codes that live 15 minutes', async () => {
    const before = Date.now();
    await app().register();
    const row = await app().ctx.db.selectFrom('codes').selectAll().executeTakeFirstOrThrow();
    const ttl = Date.parse(row.expires_at) - before;
    expect(ttl).toBeGreaterThan(15 * 60_000 - 5_000);
    expect(ttl).toBeLessThanOrEqual(15 * 60_000 + 5_000);
  });

  it('locks the code after 5 wrong tries, even against the right code afterwards', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    const wrong = wrongCode(code);

    for (let i = 1; i <= 4; i++) {
      const res = await verify(payload.email, wrong);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe(MSG.invalidCode);
    }
    const fifth = await verify(payload.email, wrong);
    expect(fifth.status).toBe(400);
    expect(fifth.body.detail).toBe(MSG.codeLocked);

    const right = await verify(payload.email, code);
    expect(right.status).toBe(400);
    expect(right.body.detail).toBe(MSG.codeLocked);
    expect(right.body).not.toHaveProperty('token');
    expect((await app().login(payload.email, payload.password)).status).toBe(403);
  });

  it('accepts the right code after 4 wrong tries', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    for (let i = 0; i < 4; i++) expect((await verify(payload.email, wrongCode(code))).status).toBe(400);
    expect((await verify(payload.email, code)).status).toBe(200);
  });

  it('refuses a code that was already used', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    expect((await verify(payload.email, code)).status).toBe(200);

    const again = await verify(payload.email, code);
    expect(again.status).toBe(400);
    expect(again.body).not.toHaveProperty('token');
    expect(await app().ctx.db.selectFrom('codes').selectAll().execute()).toHaveLength(0);
  });

  it('voids the old code when a resend mails a new one', async () => {
    const payload = await app().register();
    const first = await app().codeFor(payload.email);

    const res = await resend(payload.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    const second = await app().codeFor(payload.email, { count: 2 });

    // One in a million the CSPRNG repeats itself; the old code is then the new one.
    if (second !== first) {
      const old = await verify(payload.email, first);
      expect(old.status).toBe(400);
      expect(old.body.detail).toBe(MSG.invalidCode);
    }
    expect((await verify(payload.email, second)).status).toBe(200);
    expect(await app().ctx.db.selectFrom('codes').selectAll().execute()).toHaveLength(0);
  });

  it('a resend starts the wrong-try count afresh', async () => {
    const payload = await app().register();
    const first = await app().codeFor(payload.email);
    for (let i = 0; i < 5; i++) await verify(payload.email, wrongCode(first));
    expect((await resend(payload.email)).status).toBe(200);
    const second = await app().codeFor(payload.email, { count: 2 });
    expect((await verify(payload.email, second)).status).toBe(200);
  });

  it('answers a resend for an unknown address the same way and mails nothing', async () => {
    const known = await app().register();
    const unknown = newEmail();
    const a = await resend(unknown);
    const b = await resend(known.email);
    expect(a.status).toBe(200);
    expect(a.body).toEqual(b.body);
    await app().mail.waitFor(known.email, { count: 2 });
    expect(app().mail.to(unknown)).toHaveLength(0);
  });

  it('refuses a resend for an account that is already verified', async () => {
    const { payload } = await app().signUpAndVerify();
    const res = await resend(payload.email);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.alreadyVerified });
    expect(app().mail.to(payload.email)).toHaveLength(1);
  });

  it('refuses a resend with an invalid address as a field error', async () => {
    const res = await resend('nope');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['email']);
  });

  it('counts each wrong try on the stored code', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    await verify(payload.email, wrongCode(code));
    await verify(payload.email, wrongCode(code));
    const row = await app().ctx.db.selectFrom('codes').select('attempts').executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
  });
});
