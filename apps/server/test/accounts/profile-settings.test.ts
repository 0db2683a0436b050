import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// GET /api/users/profile/ and GET|PUT /api/users/profile/settings/ (SPEC §3, §4, §7, §9).
const app = useTestApp();

describe('own profile', () => {
  it('answers every own-profile field of SPEC §3', async () => {
    const { token, user, payload } = await app().signUpAndVerify();
    const res = await app().get('/api/users/profile/', token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      user: user.id,
      id: user.id,
      username: payload.username,
      email: payload.email,
      first_name: payload.first_name,
      last_name: payload.last_name,
      displayname: `${payload.first_name} ${payload.last_name}`,
      bio: '',
      avatar: null,
      hide_profile: false,
      is_blue_verified: false,
      is_online: false,
      last_seen: null,
    });
    expect(res.body).toHaveProperty('image');
    expect(new Date(res.body.date_joined).toISOString()).toBe(res.body.date_joined);
    expect(res.body.created_at).toBe(res.body.date_joined);
    expect(Date.now() - Date.parse(res.body.date_joined)).toBeLessThan(60_000);
    expect(res.text).not.toMatch(/password|argon/i);
  });

  it('is refused without a token', async () => {
    const res = await app().get('/api/users/profile/');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: expect.any(String) });
  });
});

describe('settings', () => {
  it('answers the user and the SPEC defaults', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const res = await app().get('/api/users/profile/settings/', token);
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      first_name: payload.first_name,
      last_name: payload.last_name,
      username: payload.username,
      email: payload.email,
      is_activated: true,
    });
    expect(res.body.profile).toEqual({
      displayname: `${payload.first_name} ${payload.last_name}`,
      phone: '',
      bio: '',
      hide_profile: false,
      online_status: true,
      read_receipt: true,
      push_notification: true,
      email_notification: false,
      avatar: null,
    });
  });

  it.each([
    ['online_status', false],
    ['read_receipt', false],
    ['push_notification', false],
    ['email_notification', true],
    ['hide_profile', true],
  ] as const)('changes %s alone and keeps it', async (field, value) => {
    const { token } = await app().signUpAndVerify();
    const before = (await app().get('/api/users/profile/settings/', token)).body.profile;

    const res = await app().put('/api/users/profile/settings/', { [field]: value }, token);
    expect(res.status).toBe(200);
    expect(res.body.profile).toEqual({ ...before, [field]: value });

    const reloaded = await app().get('/api/users/profile/settings/', token);
    expect(reloaded.body.profile).toEqual({ ...before, [field]: value });

    // And back again.
    const back = await app().put('/api/users/profile/settings/', { [field]: !value }, token);
    expect(back.body.profile).toEqual(before);
  });

  it('keeps a language, follows the browser again with null, and refuses one Parley does not speak', async () => {
    const { token } = await app().signUpAndVerify();
    expect((await app().get('/api/users/profile/settings/', token)).body.language).toBeNull();
    const chosen = await app().put('/api/users/profile/settings/', { language: 'pt-BR' }, token);
    expect(chosen.status, chosen.text).toBe(200);
    expect(chosen.body.language).toBe('pt-BR');
    expect((await app().get('/api/users/profile/settings/', token)).body.language).toBe('pt-BR');
    const unknown = await app().put('/api/users/profile/settings/', { language: 'tlh' }, token);
    expect(unknown.status).toBe(400);
    expect(Object.keys(unknown.body)).toEqual(['language']);
    expect((await app().get('/api/users/profile/settings/', token)).body.language).toBe('pt-BR');
    const browser = await app().put('/api/users/profile/settings/', { language: null }, token);
    expect(browser.body.language).toBeNull();
  });

  it('shows hide_profile on the own profile too', async () => {
    const { token } = await app().signUpAndVerify();
    await app().put('/api/users/profile/settings/', { hide_profile: true }, token);
    expect((await app().get('/api/users/profile/', token)).body.hide_profile).toBe(true);
  });

  it('changes only the signed-in user', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify();
    await app().put('/api/users/profile/settings/', { online_status: false }, a.token);
    expect((await app().get('/api/users/profile/settings/', b.token)).body.profile.online_status).toBe(true);
  });

  it('refuses an empty change, a non-boolean value and a token-less call', async () => {
    const { token } = await app().signUpAndVerify();
    const empty = await app().put('/api/users/profile/settings/', {}, token);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ detail: expect.any(String) });

    const wrongType = await app().put('/api/users/profile/settings/', { read_receipt: 'no' }, token);
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body)).toEqual(['read_receipt']);
    expect((await app().get('/api/users/profile/settings/', token)).body.profile.read_receipt).toBe(true);

    expect((await app().put('/api/users/profile/settings/', { read_receipt: false })).status).toBe(401);
    expect((await app().get('/api/users/profile/settings/')).status).toBe(401);
  });

  it('ignores fields that are not settings', async () => {
    const { token, payload } = await app().signUpAndVerify();
    const res = await app().put(
      '/api/users/profile/settings/',
      { read_receipt: false, email: 'evil@example.test', is_blue_verified: true, is_activated: false },
      token,
    );
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(payload.email);
    expect(res.body.user.is_activated).toBe(true);
    expect((await app().get('/api/users/profile/', token)).body.is_blue_verified).toBe(false);
  });
});
