import { MSG } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// DELETE /api/users/account/delete/ (SPEC §7; DESIGN §1 account deletion, §7 sessions).
const app = useTestApp();

describe('account deletion', () => {
  it('answers 204 and ends this and every other session at once', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const other = (await app().login(payload.email, payload.password, false)).body.token as string;
    const bystander = await app().signUpAndVerify();

    const res = await app().del('/api/users/account/delete/', token);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    expect((await app().get('/api/users/profile/', token)).status).toBe(401);
    expect((await app().get('/api/users/profile/', other)).status).toBe(401);
    expect((await app().del('/api/users/account/delete/', other)).status).toBe(401);
    // Nobody else is touched.
    expect((await app().get('/api/users/profile/', bystander.token)).status).toBe(200);
  });

  it('removes credentials, sessions and codes, so the login fails', async () => {
    const { token, user, payload } = await app().signUpAndVerify();
    // Leave a pending code behind too.
    await app().put('/api/users/email/update/', { email: `pending.${payload.email}` }, token);
    await app().mail.waitFor(`pending.${payload.email}`);

    expect((await app().del('/api/users/account/delete/', token)).status).toBe(204);

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
    expect((await app().del('/api/users/account/delete/', token)).status).toBe(204);

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
    expect((await app().del('/api/users/account/delete/', `${token}x`)).status).toBe(401);
    expect((await app().get('/api/users/profile/', token)).status).toBe(200);
  });
});
