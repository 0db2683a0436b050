import { TOTP_MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { people } from '../chats/chat-helpers';
import { useTestApp } from '../helpers/test-app';
import { codeFor, enableTwoStep, FIREFOX_LINUX, loginFrom } from './account-helpers';

// Two-step sign-in with RFC 6238 codes made here from the secret as an authenticator app makes them,
// single-use recovery codes, and the lock after 5 wrong codes.
const app = useTestApp();

const wrongCode = async (secret: string) => {
  const right = new Set([await codeFor(secret, -1), await codeFor(secret), await codeFor(secret, 1)]);
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!right.has(code)) return code;
  }
};

describe('two-step sign-in', () => {
  it('is set up with a secret, turned on with a code from it, and asked for at every login', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    expect((await t.get('/api/users/2fa/', ada.token)).body).toEqual({
      enabled: false,
      recovery_codes_left: 0,
    });
    expect((await t.post('/api/users/2fa/setup/', {})).status).toBe(401);
    expect((await t.get('/api/users/2fa/')).status).toBe(401);

    const setup = await t.post('/api/users/2fa/setup/', {}, ada.token);
    expect(setup.status, setup.text).toBe(200);
    const secret: string = setup.body.secret;
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(setup.body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('issuer')).toBe('Parley');
    expect(decodeURIComponent(url.pathname)).toContain(ada.payload.email);
    // Not on until a code proves the app has the secret; logins are as before.
    await loginFrom(t, ada, FIREFOX_LINUX);

    // Stored sealed: the database does not hold the secret.
    const row = await t.ctx.db.selectFrom('totp_factors').selectAll().executeTakeFirstOrThrow();
    expect(row.secret).not.toContain(secret);

    const wrong = await t.post('/api/users/2fa/enable/', { code: await wrongCode(secret) }, ada.token);
    expect(wrong.status).toBe(400);
    expect(wrong.body.detail).toBe(TOTP_MSG.invalidCode);
    expect((await t.post('/api/users/2fa/enable/', { code: '12ab' }, ada.token)).status).toBe(400);

    const enabled = await t.post('/api/users/2fa/enable/', { code: await codeFor(secret) }, ada.token);
    expect(enabled.status, enabled.text).toBe(200);
    const codes: string[] = enabled.body.recovery_codes;
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    // Stored as keyed hashes only.
    const hashes = await t.ctx.db.selectFrom('recovery_codes').select('code_hash').execute();
    expect(
      hashes.map((h) => h.code_hash).some((h) => codes.some((c) => h.includes(c.replace(/-/g, '')))),
    ).toBe(false);
    expect((await t.get('/api/users/2fa/', ada.token)).body).toEqual({
      enabled: true,
      recovery_codes_left: 10,
    });
    // A second setup cannot replace the secret in use, nor show it again.
    expect((await t.post('/api/users/2fa/setup/', {}, ada.token)).status).toBe(409);

    // Without the code: 401 asking for it, and no token.
    const asked = await loginFrom(t, ada, FIREFOX_LINUX, {}, 401);
    expect(asked.detail).toMatchObject({ requires_totp: true });
    expect(asked.token).toBeUndefined();
    // With the next step's code (the current one was used to turn it on): signed in.
    const next = await codeFor(secret, 1);
    const signedIn = await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: next });
    expect(typeof signedIn.token).toBe('string');
    // The same code twice is refused (RFC 6238 §5.2).
    const replay = await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: next }, 400);
    expect(replay.detail).toBe(TOTP_MSG.invalidCode);
    // A wrong password never reaches the second step.
    const res = await t.login(ada.payload.email, 'not-the-password');
    expect(res.status).toBe(400);

    const audit = await t.ctx.audit.list({ type: '2fa.enabled' });
    expect(audit.results).toHaveLength(1);
    expect(JSON.stringify(await t.ctx.audit.list({}))).not.toContain(secret);
  });

  it('takes each recovery code once in place of the app’s code', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const { recoveryCodes } = await enableTwoStep(t, ada.token);
    const [first, second] = recoveryCodes as [string, string];

    const signedIn = await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: first });
    expect(typeof signedIn.token).toBe('string');
    expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: first }, 400)).detail).toBe(
      TOTP_MSG.invalidCode,
    );
    // Typed in capitals and without dashes, it is the same code.
    await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: second.replace(/-/g, '').toUpperCase() });
    expect((await t.get('/api/users/2fa/', ada.token)).body.recovery_codes_left).toBe(8);
    // Recovery codes cannot turn a factor on (only the app's code proves it has the secret).
    const enable = await t.post('/api/users/2fa/enable/', { code: recoveryCodes[2] }, ada.token);
    expect(enable.status).toBe(400);
    expect(enable.body.code).toBeDefined();
  });

  it('locks after 5 wrong codes, refusing even the right one until the lock is over', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const { secret, recoveryCodes } = await enableTwoStep(t, ada.token);
    const wrong = await wrongCode(secret);
    for (let i = 1; i <= 4; i++)
      expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: wrong }, 400)).detail).toBe(
        TOTP_MSG.invalidCode,
      );
    expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: wrong }, 400)).detail).toBe(TOTP_MSG.locked);
    const right = await codeFor(secret, 1);
    expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: right }, 400)).detail).toBe(TOTP_MSG.locked);
    expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: recoveryCodes[0] }, 400)).detail).toBe(
      TOTP_MSG.locked,
    );
    // Turning it off needs a code too, and is locked alike.
    const off = await t.post(
      '/api/users/2fa/disable/',
      { password: ada.payload.password, code: right },
      ada.token,
    );
    expect(off.body.detail).toBe(TOTP_MSG.locked);
    expect((await t.ctx.audit.list({ type: 'auth.totp_locked' })).results).toHaveLength(1);
    expect((await t.ctx.audit.list({ type: 'auth.totp_failed' })).results.length).toBeGreaterThanOrEqual(5);

    // Fifteen minutes later (moved back here): the right code signs in and the tries start again.
    await t.ctx.db
      .updateTable('totp_factors')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect(typeof (await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: right })).token).toBe('string');
    expect((await loginFrom(t, ada, FIREFOX_LINUX, { totp_code: wrong }, 400)).detail).toBe(
      TOTP_MSG.invalidCode,
    );
  });

  it('is turned off with the password and a code, by the person only', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const { secret } = await enableTwoStep(t, ada.token);
    const code = await codeFor(secret, 1);

    expect((await t.post('/api/users/2fa/disable/', { password: 'x', code })).status).toBe(401);
    // Grace's own session turns off only Grace's, which is not on.
    const graces = await t.post(
      '/api/users/2fa/disable/',
      { password: grace.payload.password, code },
      grace.token,
    );
    expect(graces.status).toBe(400);
    expect(graces.body.detail).toBe(TOTP_MSG.notEnabled);
    const badPassword = await t.post(
      '/api/users/2fa/disable/',
      { password: 'wrong-password', code },
      ada.token,
    );
    expect(badPassword.status).toBe(400);
    expect(badPassword.body).toEqual({ password: [TOTP_MSG.wrongPassword] });
    const noCode = await t.post('/api/users/2fa/disable/', { password: ada.payload.password }, ada.token);
    expect(noCode.status).toBe(400);
    expect(noCode.body.code).toBeDefined();
    expect((await t.get('/api/users/2fa/', ada.token)).body.enabled).toBe(true);

    const off = await t.post('/api/users/2fa/disable/', { password: ada.payload.password, code }, ada.token);
    expect(off.status, off.text).toBe(200);
    expect((await t.get('/api/users/2fa/', ada.token)).body).toEqual({
      enabled: false,
      recovery_codes_left: 0,
    });
    expect(typeof (await loginFrom(t, ada, FIREFOX_LINUX)).token).toBe('string');
    expect((await t.ctx.audit.list({ type: '2fa.disabled' })).results).toHaveLength(1);
  });
});
