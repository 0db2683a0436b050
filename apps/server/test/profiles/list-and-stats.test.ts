import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';

// GET /api/profiles and GET /api/stats: public, activated accounts only, hidden profiles and deleted
// accounts not listed (SPEC §2 Home, §3; DESIGN §1).
const app = useTestApp();

describe('GET /api/profiles', () => {
  it('lists activated accounts with exactly the card fields, without signing in', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify({ first_name: 'Grace', last_name: 'Hopper' });
    await app().register(); // never verified

    const res = await app().get('/api/profiles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      {
        id: a.user.id,
        username: a.user.username,
        displayname: 'Ada Lovelace',
        avatar: null,
        is_online: false,
        is_blue_verified: false,
      },
      {
        id: b.user.id,
        username: b.user.username,
        displayname: 'Grace Hopper',
        avatar: null,
        is_online: false,
        is_blue_verified: false,
      },
    ]);
    expect(res.text).not.toContain('@example.test');
  });

  it('leaves out hidden profiles and deleted accounts', async () => {
    const shown = await app().signUpAndVerify();
    const hidden = await app().signUpAndVerify();
    const deleted = await app().signUpAndVerify();
    expect(
      (await app().put('/api/users/profile/settings/', { hide_profile: true }, hidden.token)).status,
    ).toBe(200);
    expect((await app().deleteAccount(deleted.token)).status).toBe(204);

    const res = await app().get('/api/profiles');
    expect(res.status).toBe(200);
    expect(res.body.map((p: { id: number }) => p.id)).toEqual([shown.user.id]);
  });

  it('shows who is online, online first, in a stable order, and nobody online who switched it off', async () => {
    const a = await app().signUpAndVerify();
    const b = await app().signUpAndVerify();
    const c = await app().signUpAndVerify();
    const d = await app().signUpAndVerify();
    await app().ctx.presence.connect(c.user.id);
    await app().ctx.presence.connect(d.user.id);
    await app().put('/api/users/profile/settings/', { online_status: false }, d.token);

    const first = await app().get('/api/profiles');
    const order = first.body.map((p: { id: number; is_online: boolean }) => [p.id, p.is_online]);
    expect(order).toEqual([
      [c.user.id, true],
      [a.user.id, false],
      [b.user.id, false],
      [d.user.id, false],
    ]);
    expect((await app().get('/api/profiles')).body).toEqual(first.body);
  });

  it('shows the verified badge', async () => {
    const a = await app().signUpAndVerify();
    await app()
      .ctx.db.updateTable('users')
      .set({ is_blue_verified: 1 })
      .where('id', '=', a.user.id)
      .execute();
    const res = await app().get('/api/profiles');
    expect(res.body[0]).toMatchObject({ id: a.user.id, is_blue_verified: true });
  });

  it('answers an empty list when nobody is there', async () => {
    const res = await app().get('/api/profiles');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });
});

describe('GET /api/stats', () => {
  it('counts activated users (hidden ones too) and stored messages', async () => {
    const a = await app().signUpAndVerify();
    const hidden = await app().signUpAndVerify();
    const deleted = await app().signUpAndVerify();
    await app().register(); // not activated: not counted
    await app().put('/api/users/profile/settings/', { hide_profile: true }, hidden.token);
    await app().deleteAccount(deleted.token);

    const { chat_id } = await app().ctx.chats.createGroup(a.user.id, 'Stats');
    await app().ctx.messages.send(a.user.id, chat_id, { body: 'one' });
    await app().ctx.messages.send(a.user.id, chat_id, { body: 'two' });

    const res = await app().get('/api/stats');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ total_users: 2, total_messages: 2 });
  });

  it('starts at zero', async () => {
    const res = await app().get('/api/stats');
    expect(res.body).toEqual({ total_users: 0, total_messages: 0 });
  });
});
