import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { extractCode, newRegistration } from '../helpers/factories';
import { useTestApp } from '../helpers/test-app';

// POST /api/users/register/ (SPEC §3, §5, §7; DESIGN §7).
const app = useTestApp();
const register = (body: unknown) => app().post('/api/users/register/', body);

describe('register', () => {
  it('always requires verification and mails a 6-digit code to the address', async () => {
    const payload = newRegistration();
    const res = await register(payload);

    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      requires_verification: true,
      email: payload.email,
      message: expect.any(String),
    });
    expect(res.body.message.length).toBeGreaterThan(0);
    expect(res.body).not.toHaveProperty('token');

    const mail = await app().mail.waitFor(payload.email);
    expect(mail.subject).toMatch(/verify/i);
    expect(extractCode(mail.text)).toMatch(/^\d{6}$/);
    expect(app().mail.mails).toHaveLength(1);
  });

  it('stores the account unverified, the email lower-cased and the password hashed', async () => {
    const payload = newRegistration();
    const mixedCase = payload.email.replace(/^ada/, 'ADA');
    const res = await register({ ...payload, email: mixedCase });
    expect(res.status).toBe(200);
    expect(res.body.email).toBe(payload.email);

    const row = await app()
      .ctx.db.selectFrom('users')
      .selectAll()
      .where('username', '=', payload.username)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(payload.email);
    expect(row.is_activated).toBe(0);
    expect(row.password_hash).not.toContain(payload.password);
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.displayname).toBe(`${payload.first_name} ${payload.last_name}`);
  });

  it('stores the emailed code only as a hash', async () => {
    const payload = await app().register();
    const code = await app().codeFor(payload.email);
    const rows = await app().ctx.db.selectFrom('codes').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.purpose).toBe('signup');
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it.each([
    ['missing', undefined, /./],
    ['empty', '', /^Username is required$/],
    ['short', 'ab', /^Username must be at least 3 characters$/],
  ])('refuses a %s username with a username field error', async (_what, username, message) => {
    const res = await register({ ...newRegistration(), username });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['username']);
    expect(res.body.username[0]).toMatch(message);
    expect(app().mail.mails).toHaveLength(0);
  });

  it('refuses a username equal to the email (case-insensitive)', async () => {
    const payload = newRegistration();
    const res = await register({ ...payload, username: payload.email.toUpperCase() });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['username']);
    expect(res.body.username).toContain('Username cannot be the same as email address');
  });

  it.each([
    ['invalid', 'not-an-email', 'Email is invalid'],
    ['missing domain', 'ada@', 'Email is invalid'],
    ['empty', '', 'Email is required'],
  ])('refuses an %s email with an email field error', async (_what, email, message) => {
    const res = await register({ ...newRegistration(), email });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['email']);
    expect(res.body.email[0]).toBe(message);
  });

  it('refuses a password shorter than 6 characters', async () => {
    const res = await register({ ...newRegistration(), password: 'abc12' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ password: ['Password must be at least 6 characters'] });
  });

  it('accepts a password of exactly 6 characters and one of 128', async () => {
    expect((await register(newRegistration({ password: 'zq7!xk' }))).status).toBe(200);
    expect((await register(newRegistration({ password: 'p'.repeat(120) + 'q'.repeat(8) }))).status).toBe(200);
  });

  it.each(['password123', 'qwerty123', '123456789', 'iloveyou'])(
    'refuses the common password %s',
    async (password) => {
      const res = await register({ ...newRegistration(), password });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ password: ['This password is too common.'] });
      expect(await app().ctx.db.selectFrom('users').selectAll().execute()).toHaveLength(0);
    },
  );

  it('refuses missing first and last names with their fields named', async () => {
    const { first_name: _f, last_name: _l, ...rest } = newRegistration();
    const res = await register(rest);
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['first_name', 'last_name']);
  });

  it('refuses a taken username whatever its case, naming the username field', async () => {
    const first = await app().register();
    const res = await register(newRegistration({ username: first.username.toUpperCase() }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ username: [MSG.usernameTaken] });
    expect(app().mail.mails).toHaveLength(1);
  });

  it('refuses a taken email whatever its case, naming the email field', async () => {
    const first = await app().register();
    const res = await register(newRegistration({ email: first.email.toUpperCase() }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: [MSG.emailTaken] });
    // No second code went to the owner of the address.
    expect(app().mail.to(first.email)).toHaveLength(1);
  });

  it('names both fields when username and email are both taken', async () => {
    const first = await app().register();
    const res = await register(newRegistration({ username: first.username, email: first.email }));
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(['email', 'username']);
  });

  it('never returns the password or its hash', async () => {
    const payload = newRegistration();
    const res = await register(payload);
    expect(res.text).not.toContain(payload.password);
    expect(res.text).not.toContain('argon2');
    expect(res.text).not.toMatch(/password/i);
  });
});
