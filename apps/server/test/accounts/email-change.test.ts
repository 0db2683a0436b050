import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { extractCode, newEmail, wrongCode } from '../helpers/factories';
import { useTestApp } from '../helpers/test-app';

// PUT /api/users/email/update/ and POST /api/users/email/verify/code/ (SPEC §4, §7; DESIGN §7).
const app = useTestApp();
const requestChange = (email: string, token?: string) =>
  app().put('/api/users/email/update/', { email }, token);
const confirmChange = (verification_code: string, token?: string) =>
  app().post('/api/users/email/verify/code/', { verification_code }, token);

describe('email change', () => {
  it('mails the code to the new address and changes the email only once it is verified', async () => {
    const { token, user, payload } = await app().signUpAndVerify();
    const oldEmail = payload.email;
    const wanted = newEmail('moved');

    const res = await requestChange(wanted.toUpperCase(), token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ requires_verification: true, pending_email: wanted });

    const codeMail = await app().mail.waitFor(wanted);
    expect(codeMail.to).toEqual([wanted]);
    const code = await app().codeFor(wanted);
    // Nothing went to the old address beyond its sign-up code.
    expect(app().mail.to(oldEmail)).toHaveLength(1);

    // Not changed yet: profile, settings (with the pending address) and login all still know the old one.
    expect((await app().get('/api/users/profile/', token)).body.email).toBe(oldEmail);
    const settings = (await app().get('/api/users/profile/settings/', token)).body;
    expect(settings.user.email).toBe(oldEmail);
    expect(settings.pending_email).toBe(wanted);
    expect((await app().login(wanted, payload.password)).status).toBe(400);

    const done = await confirmChange(code, token);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ message: expect.any(String), user: { ...user, email: wanted } });

    expect((await app().get('/api/users/profile/', token)).body.email).toBe(wanted);
    expect((await app().get('/api/users/profile/settings/', token)).body.pending_email).toBeNull();
    expect((await app().login(wanted, payload.password)).status).toBe(200);
    expect((await app().login(oldEmail, payload.password)).status).toBe(400);

    const notice = await app().mail.waitFor(oldEmail, { count: 2 });
    expect(notice.subject).toMatch(/email address was changed/i);
    expect(notice.text).toContain(wanted);
    // No code in the notice. The address itself is left out of the look: its random part may hold six digits.
    expect(notice.text.replaceAll(wanted, '')).not.toMatch(/(?<!\d)\d{6}(?!\d)/);
  });

  it('answers two simultaneous requests, and one of the mailed codes works', async () => {
    const { token } = await app().signUpAndVerify();
    for (let round = 0; round < 3; round++) {
      const wanted = newEmail('moved');
      const answers = await Promise.all([requestChange(wanted, token), requestChange(wanted, token)]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      await app().mail.waitFor(wanted, { count: 2 });
      const statuses = [];
      for (const m of app().mail.to(wanted))
        statuses.push((await confirmChange(extractCode(m.text), token)).status);
      expect(statuses).toContain(200);
      expect((await app().get('/api/users/profile/', token)).body.email).toBe(wanted);
    }
  });

  it('refuses a wrong code and keeps the email', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    await requestChange(wanted, token);
    const code = await app().codeFor(wanted);

    const res = await confirmChange(wrongCode(code), token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
    expect((await app().get('/api/users/profile/', token)).body.email).toBe(payload.email);
  });

  it('refuses the code once it has been used', async () => {
    const { token } = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    await requestChange(wanted, token);
    const code = await app().codeFor(wanted);
    expect((await confirmChange(code, token)).status).toBe(200);
    const again = await confirmChange(code, token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: MSG.invalidCode });
  });

  it('refuses an expired code', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    await requestChange(wanted, token);
    const code = await app().codeFor(wanted);
    await app()
      .ctx.db.updateTable('codes')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('purpose', '=', 'email_change')
      .execute();
    expect((await confirmChange(code, token)).status).toBe(400);
    expect((await app().get('/api/users/profile/', token)).body.email).toBe(payload.email);
  });

  it('locks the code after 5 wrong tries', async () => {
    const { token } = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    await requestChange(wanted, token);
    const code = await app().codeFor(wanted);
    for (let i = 0; i < 5; i++) expect((await confirmChange(wrongCode(code), token)).status).toBe(400);
    const res = await confirmChange(code, token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.codeLocked });
  });

  it("does not accept another user's code", async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify();
    const wanted = newEmail('moved');
    await requestChange(wanted, a.token);
    const code = await app().codeFor(wanted);
    expect((await confirmChange(code, b.token)).status).toBe(400);
    expect((await app().get('/api/users/profile/', b.token)).body.email).toBe(b.payload.email);
  });

  it('refuses an address that another account has, naming the email field', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().register();
    const res = await requestChange(b.email.toUpperCase(), a.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: [MSG.emailTaken] });
    expect(app().mail.to(b.email)).toHaveLength(1);
  });

  it('refuses the address when someone took it between request and verification', async () => {
    const a = await app().signUpAndVerify();
    const wanted = newEmail('contested');
    await requestChange(wanted, a.token);
    const code = await app().codeFor(wanted);
    await app().register({ email: wanted });

    const res = await confirmChange(code, a.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ email: [MSG.emailTaken] });
    expect((await app().get('/api/users/profile/', a.token)).body.email).toBe(a.payload.email);
  });

  it('refuses the current address, an invalid one and a call without a token', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const same = await requestChange(payload.email, token);
    expect(same.status).toBe(400);
    expect(Object.keys(same.body)).toEqual(['email']);

    const invalid = await requestChange('nope', token);
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ email: ['Email is invalid'] });

    expect((await requestChange(newEmail(), undefined)).status).toBe(401);
    expect((await confirmChange('123456', undefined)).status).toBe(401);
    expect(app().mail.mails).toHaveLength(1);
  });

  it('refuses a verification with nothing pending', async () => {
    const { token } = await app().signUpAndVerify();
    const res = await confirmChange('123456', token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ detail: MSG.invalidCode });
  });
});
