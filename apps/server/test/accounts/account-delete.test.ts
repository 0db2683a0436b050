import { ACCOUNT_DELETE_MSG, MSG, TOTP_MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { codeFor, enableTwoStep } from '../safety-account/account-helpers';

// DELETE /api/users/account/delete/ (SPEC §7; DESIGN §1 account deletion, §7 sessions), with the owner's
// password, and a code while two-step sign-in is on, as turning two-step sign-in off asks.
const app = useTestApp();

describe('account deletion', () => {
  it('answers 204 and ends this and every other session at once', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const other = (await app().login(payload.email, payload.password, false)).body.token as string;
    const bystander = await app().signUpAndVerify();

    const res = await app().deleteAccount(token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
    expect((await app().get('/api/users/profile/', other)).status).toBe(401);
    expect((await app().deleteAccount(other)).status).toBe(401);
    // Nobody else is touched.
    expect((await app().get('/api/users/profile/', bystander.token)).status).toBe(200);
  });

  it('removes credentials, sessions and codes, so the login fails', async () => {
    const { token, user, payload } = await app().signUpAndVerify();
    // Leave a pending code behind too.
    await app().put('/api/users/email/update/', { email: `pending.${payload.email}` }, token);
    await app().mail.waitFor(`pending.${payload.email}`);

    expect((await app().deleteAccount(token)).status).toBe(204);

    const db = app().ctx.db;
    expect(await db.selectFrom('users').selectAll().where('id', '=', user.id).execute()).toHaveLength(0);
    expect(await db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute()).toHaveLength(
      0,
    );
    expect(await db.selectFrom('codes').selectAll().where('user_id', '=', user.id).execute()).toHaveLength(0);

    const login = await app().login(payload.email, payload.password);
    expect(login.status).toBe(400);
    expect(login.body).toEqual({ detail: MSG.invalidCredentials });
  });

  it('frees the email and the username to register again', async () => {
    const { token, payload } = await app().signUpAndVerify();
    expect((await app().deleteAccount(token)).status).toBe(204);

    const again = await app().post('/api/users/register/', { ...payload, password: 'another-good-one-5' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ requires_verification: true, email: payload.email });
    const code = await app().codeFor(payload.email, { count: 2 });
    const verified = await app().post('/api/users/email/verify/signup/', {
      email: payload.email,
      verification_code: code,
    });
    expect(verified.status).toBe(200);
    expect((await app().login(payload.email, 'another-good-one-5')).status).toBe(200);
  });

  it('needs a token', async () => {
    const { token } = await app().signUpAndVerify();
    expect((await app().del('/api/users/account/delete/')).status).toBe(401);
    expect((await app().deleteAccount(`${token}x`)).status).toBe(401);
    expect((await app().get('/api/users/profile/', token)).status).toBe(200);
  });

  it('is refused without the password, or with a wrong one, and the account stays', async () => {
    const { token, user } = await app().signUpAndVerify();
    const bare = await app().del('/api/users/account/delete/', token);
    expect(bare.status).toBe(400);
    expect(bare.body).toEqual({ detail: ACCOUNT_DELETE_MSG.passwordNeeded });
    const empty = await app().request('DELETE', '/api/users/account/delete/', {
      token,
      json: { password: '' },
    });
    expect(empty.body).toEqual({ detail: ACCOUNT_DELETE_MSG.passwordNeeded });
    const wrong = await app().deleteAccount(token, 'not-my-password');
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ password: [TOTP_MSG.wrongPassword] });

    expect((await app().get('/api/users/profile/', token)).status).toBe(200);
    const row = await app().ctx.db.selectFrom('users').select('id').where('id', '=', user.id).execute();
    expect(row).toHaveLength(1);
  });

  it('asks for a code as well while two-step sign-in is on', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const { secret, recoveryCodes } = await enableTwoStep(app(), token);
    const del = (json: object) => app().request('DELETE', '/api/users/account/delete/', { token, json });

    const noCode = await app().deleteAccount(token);
    expect(noCode.status).toBe(400);
    expect(noCode.body).toEqual({ code: [TOTP_MSG.codeRequired] });
    const wrongPassword = await del({ password: 'Wrong-password-1', code: recoveryCodes[1] });
    expect(wrongPassword.body).toEqual({ password: [TOTP_MSG.wrongPassword] });
    // Five minutes ahead: far outside the one step of drift a code is allowed.
    const wrongCode = await del({ password: payload.password, code: await codeFor(secret, 10) });
    expect(wrongCode.status).toBe(400);
    expect(wrongCode.body).toEqual({ detail: TOTP_MSG.invalidCode });
    expect((await app().get('/api/users/profile/', token)).status).toBe(200);

    expect((await del({ password: payload.password, code: recoveryCodes[0] })).status).toBe(204);
    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
  });
});
