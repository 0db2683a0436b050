import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { extractCode, GOOD_PASSWORD, newEmail, wrongCode } from '../helpers/factories';
import { useTestApp } from '../helpers/test-app';

// POST /api/users/password/reset/{request,verify,confirm}/ (SPEC §7, §8; DESIGN §7).
const app = useTestApp();
const NEW_PASSWORD = 'a-brand-new-secret-9';

const requestReset = (email: string) => app().post('/api/users/password/reset/request/', { email });
const verifyReset = (email: string, verification_code: string) =>
  app().post('/api/users/password/reset/verify/', { email, verification_code });
const confirmReset = (email: string, verification_code: string, new_password: string) =>
  app().post('/api/users/password/reset/confirm/', { email, verification_code, new_password });

/** A verified user who asked for a reset, with the code from the mail. */
async function resetRequested() {
  const signedUp = await app().signUpAndVerify();
  const res = await requestReset(signedUp.payload.email);
  expect(res.status).toBe(200);
  const mail = await app().mail.waitFor(signedUp.payload.email, { subject: /reset/i });
  const code = await app().codeFor(signedUp.payload.email, { subject: mail.subject });
  return { ...signedUp, email: signedUp.payload.email, code };
}

describe('password reset request', () => {
  it('answers the SPEC message and mails a code to a known address', async () => {
    const { payload } = await app().signUpAndVerify();
    const res = await requestReset(payload.email);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 'If this email exists, a reset code has been sent.' });
    const mail = await app().mail.waitFor(payload.email, { subject: /reset/i });
    expect(mail.text).toMatch(/(?<!\d)\d{6}(?!\d)/);
  });

  it('answers an unknown address the same, in the same time, and mails nothing', async () => {
    const known = [await app().signUpAndVerify(), await app().signUpAndVerify()].map((s) => s.payload.email);
    const unknown = [newEmail(), newEmail()];
    // A slow mail server shows whether the answer waits for the mail: it must not. (Generous margin: a
    // loaded CI machine must not make this flaky; awaiting the mail would take the whole delay.)
    const delayMs = 1500;
    app().mail.delayMs = delayMs;

    const timed = async (email: string) => {
      const start = performance.now();
      const res = await requestReset(email);
      return { res, ms: performance.now() - start };
    };
    const results = [];
    for (let i = 0; i < 2; i++) results.push(await timed(unknown[i] ?? ''), await timed(known[i] ?? ''));

    const first = results[0]?.res;
    for (const { res, ms } of results) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual(first?.body);
      expect(ms).toBeLessThan(delayMs);
    }
    for (const email of known) await app().mail.waitFor(email, { subject: /reset/i });
    for (const email of unknown) expect(app().mail.to(email)).toHaveLength(0);
  });

  it('refuses an invalid address as a field error', async () => {
    const res = await requestReset('not-an-address');
    expect(res.status).toBe(400);
    expect(Object.keys(res.body)).toEqual(['email']);
  });

  it('mails a code for each of two quick requests, and a mailed code works', async () => {
    // The mail goes out after the answer, so two quick requests overlap in the background: both must
    // store and mail their code (a unique-key race once lost the second mail on PostgreSQL).
    for (let round = 0; round < 3; round++) {
      const { payload } = await app().signUpAndVerify();
      expect((await requestReset(payload.email)).status).toBe(200);
      expect((await requestReset(payload.email)).status).toBe(200);
      await app().mail.waitFor(payload.email, { subject: /reset/i, count: 2 });
      const codes = app()
        .mail.to(payload.email, /reset/i)
        .map((m) => extractCode(m.text));
      const statuses = [];
      for (const code of codes) statuses.push((await verifyReset(payload.email, code)).status);
      expect(statuses).toContain(200);
    }
  });
});

describe('password reset verify', () => {
  it('accepts the right code without using it up', async () => {
    const { email, code } = await resetRequested();
    const res = await verifyReset(email, code);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect((await verifyReset(email, code)).status).toBe(200);
    expect((await confirmReset(email, code, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong code', async () => {
    const { email, code } = await resetRequested();
    const res = await verifyReset(email, wrongCode(code));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
  });

  it('refuses the sign-up code of the same user (codes are per purpose)', async () => {
    const payload = await app().register();
    const signupCode = await app().codeFor(payload.email);
    const res = await verifyReset(payload.email, signupCode);
    expect(res.status).toBe(400);
  });

  it('refuses an unknown address', async () => {
    const res = await verifyReset(newEmail(), '123456');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
  });

  it('refuses an expired code', async () => {
    const { email, code } = await resetRequested();
    await app()
      .ctx.db.updateTable('codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('purpose', '=', 'reset')
      .execute();
    expect((await verifyReset(email, code)).status).toBe(400);
    expect((await confirmReset(email, code, NEW_PASSWORD)).status).toBe(400);
  });

  it('locks the code after 5 wrong tries', async () => {
    const { email, code } = await resetRequested();
    for (let i = 0; i < 5; i++) expect((await verifyReset(email, wrongCode(code))).status).toBe(400);
    const res = await confirmReset(email, code, NEW_PASSWORD);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.codeLocked });
    expect((await app().login(email, NEW_PASSWORD)).status).toBe(400);
  });
});

describe('password reset confirm', () => {
  it('sets the password, uses up the code, ends every session and mails a notice', async () => {
    const { email, code, token, payload } = await resetRequested();
    const other = (await app().login(email, payload.password)).body.token as string;

    const res = await confirmReset(email, code, NEW_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String) });

    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
    expect((await app().get('/api/users/profile/', other)).status).toBe(401);
    expect(await app().ctx.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);

    const notice = await app().mail.waitFor(email, { subject: /password was changed/i });
    expect(notice.text).toMatch(/reset/i);
    expect(notice.text).not.toContain(NEW_PASSWORD);

    const old = await app().login(email, payload.password);
    expect(old.status).toBe(400);
    expect(old.body).toEqual({ detail: MSG.invalidCredentials });
    const fresh = await app().login(email, NEW_PASSWORD);
    expect(fresh.status).toBe(200);
    expect((await app().get('/api/users/profile/', fresh.body.token)).status).toBe(200);

    const reused = await confirmReset(email, code, 'yet-another-secret-3');
    expect(reused.status).toBe(400);
    expect(reused.body).toEqual({ detail: MSG.invalidCode });
    expect((await app().login(email, NEW_PASSWORD)).status).toBe(200);
  });

  it('refuses a wrong code and keeps the old password', async () => {
    const { email, code, payload } = await resetRequested();
    const res = await confirmReset(email, wrongCode(code), NEW_PASSWORD);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
    expect((await app().login(email, payload.password)).status).toBe(200);
    expect((await app().login(email, NEW_PASSWORD)).status).toBe(400);
  });

  it('refuses a short or common new password without using up the code', async () => {
    const { email, code } = await resetRequested();

    const short = await confirmReset(email, code, 'abc');
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ new_password: ['Password must be at least 6 characters'] });

    const common = await confirmReset(email, code, 'password123');
    expect(common.status).toBe(400);
    expect(common.body).toEqual({ new_password: ['This password is too common.'] });

    expect((await confirmReset(email, code, NEW_PASSWORD)).status).toBe(200);
  });

  it('voids the earlier code when a second request mails a new one', async () => {
    const { email, code } = await resetRequested();
    expect((await requestReset(email)).status).toBe(200);
    const second = await app().codeFor(email, { subject: /reset/i, count: 2 });
    if (second !== code) expect((await confirmReset(email, code, NEW_PASSWORD)).status).toBe(400);
    expect((await confirmReset(email, second, NEW_PASSWORD)).status).toBe(200);
  });

  it('lets a user who never verified reset too, without signing in as a side effect', async () => {
    const payload = await app().register({ password: GOOD_PASSWORD });
    expect((await requestReset(payload.email)).status).toBe(200);
    const code = await app().codeFor(payload.email, { subject: /reset/i });
    const res = await confirmReset(payload.email, code, NEW_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('token');
    expect((await app().login(payload.email, NEW_PASSWORD)).status).toBe(403);
  });
});
