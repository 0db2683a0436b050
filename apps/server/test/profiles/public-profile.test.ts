import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// GET /api/users/@{username}/: SPEC §3's public fields and nothing more; 404 for nobody, 403 for a
// hidden profile unless the viewer owns it (SPEC §2 Public profile, §6, §8; DESIGN §1).
const app = useTestApp();
// SPEC §3's public profile, and the id (public already in profile lists) that presence frames name.
const PUBLIC_FIELDS = [
  'avatar',
  'bio',
  'date_joined',
  'displayname',
  'first_name',
  'id',
  'is_blue_verified',
  'is_online',
  'last_name',
  'last_seen',
  'location',
  'username',
];

describe('GET /api/users/@{username}/', () => {
  it('shows the public fields, exactly, to anyone, and never the email', async () => {
    const u = await app().signUpAndVerify({ first_name: 'Grace', last_name: 'Hopper' });

    const res = await app().get(`/api/users/@${u.user.username}/`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PUBLIC_FIELDS);
    expect(res.body).toMatchObject({
      id: u.user.id,
      username: u.user.username,
      first_name: 'Grace',
      last_name: 'Hopper',
      displayname: 'Grace Hopper',
      avatar: null,
      bio: '',
      location: '',
      last_seen: null,
      is_online: false,
      is_blue_verified: false,
    });
    expect(new Date(res.body.date_joined).toISOString()).toBe(res.body.date_joined);
    expect(res.text).not.toContain(u.payload.email);
    expect(res.text).not.toMatch(/email|password|hash/i);
  });

  it('finds the user whatever the case of the name in the address', async () => {
    const u = await app().signUpAndVerify();
    const res = await app().get(`/api/users/@${u.user.username.toUpperCase()}/`);
    expect(res.status).toBe(200);
    expect(res.body.username).toBe(u.user.username);
  });

  it('finds the longest usernames the server takes, in any script', async () => {
    // 150 characters; in Cyrillic each is six in the address once percent-encoded.
    for (const username of ['l'.repeat(150), 'ж'.repeat(150)]) {
      const { token } = await app().signUpAndVerify({ username });
      const res = await app().get(`/api/users/@${encodeURIComponent(username)}/`);
      expect(res.status, res.text).toBe(200);
      expect(res.body.username).toBe(username);
      const chat = await app().get(`/api/chats/start/${encodeURIComponent(username)}/`, token);
      expect(chat.status).toBe(400);
    }
  });

  it('answers 404 User not found for an unknown or unverified name', async () => {
    const unverified = await app().register();
    for (const name of ['nobody_here', unverified.username]) {
      const res = await app().get(`/api/users/@${name}/`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ detail: 'User not found' });
    }
  });

  it('answers 404 once the account is deleted', async () => {
    const u = await app().signUpAndVerify();
    await app().deleteAccount(u.token);
    expect((await app().get(`/api/users/@${u.user.username}/`)).status).toBe(404);
  });

  it('answers 403 This profile is private for a hidden profile, except to its owner', async () => {
    const owner = await app().signUpAndVerify();
    const other = await app().signUpAndVerify();
    await app().put('/api/users/profile/settings/', { hide_profile: true }, owner.token);
    const url = `/api/users/@${owner.user.username}/`;

    const anonymous = await app().get(url);
    expect(anonymous.status).toBe(403);
    expect(anonymous.body).toEqual({ detail: 'This profile is private' });
    expect(anonymous.text).not.toContain(owner.user.username);

    expect((await app().get(url, other.token)).status).toBe(403);
    expect((await app().get(url, 'not-a-real-token')).status).toBe(403);

    const own = await app().get(url, owner.token);
    expect(own.status).toBe(200);
    expect(own.body.username).toBe(owner.user.username);
  });

  it('shows presence, and hides it from others when online_status is off', async () => {
    const u = await app().signUpAndVerify();
    const other = await app().signUpAndVerify();
    const seen = '2026-01-02T03:04:05.000Z';
    await app().ctx.db.updateTable('users').set({ last_seen: seen }).where('id', '=', u.user.id).execute();
    const url = `/api/users/@${u.user.username}/`;

    expect((await app().get(url)).body).toMatchObject({ is_online: false, last_seen: seen });
    await app().ctx.presence.connect(u.user.id);
    expect((await app().get(url)).body).toMatchObject({ is_online: true, last_seen: seen });

    await app().put('/api/users/profile/settings/', { online_status: false }, u.token);
    expect((await app().get(url, other.token)).body).toMatchObject({ is_online: false, last_seen: null });
    // The owner still sees the truth about themselves.
    expect((await app().get(url, u.token)).body).toMatchObject({ is_online: true, last_seen: seen });
  });
});
