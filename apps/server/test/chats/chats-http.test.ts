import { describe, expect, it } from 'vitest';
import { useTestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';
import {
  addMember,
  createGroup,
  detail,
  fullName,
  history,
  myChats,
  nextMillisecond,
  people,
  say,
  seedMessages,
  startChat,
} from './chat-helpers';

// The chats HTTP API (SPEC §3, §7; DESIGN §1, §5): chat list, detail, history paging,
// starting a private chat, creating a group; non-members learn nothing; everything needs a token.
const app = useTestApp();

const MEMBER_KEYS = [
  'avatar',
  'displayname',
  'id',
  'is_blue_verified',
  'is_online',
  'last_seen',
  'name',
  'profile',
  'role',
  'username',
];

describe('GET /api/chats/my/', () => {
  it('lists private and group chats with SPEC fields, unread counts, newest activity first', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const privateId = await startChat(app(), ada.token, grace.user.username);
    await nextMillisecond();
    const groupId = await createGroup(app(), ada.token, 'Analytical Engine');
    await addMember(app(), groupId, grace.user.id);

    // Before any message the group (created later) comes first.
    let list = await myChats(app(), ada.token);
    expect(list.map((c) => c.chat_id)).toEqual([groupId, privateId]);

    await nextMillisecond();
    const graceRoom = await joinRoom(app(), grace.token, privateId);
    await say(graceRoom, 'first note');
    const last = await say(graceRoom, 'second note');
    await graceRoom.close();

    list = await myChats(app(), ada.token);
    expect(list.map((c) => c.chat_id)).toEqual([privateId, groupId]);
    const [priv, group] = list;
    expect(Object.keys(priv).sort()).toEqual(
      [
        'avatar',
        'chat_id',
        'display_name',
        'id',
        'is_admin',
        'is_online',
        'is_private',
        'last_message',
        'last_message_files',
        'last_message_time',
        'member_count',
        'muted',
        'muted_until',
        'other_user',
        'thread_unread_count',
        'unread_count',
      ].sort(),
    );
    expect(priv).toMatchObject({
      chat_id: privateId,
      id: expect.any(Number),
      is_private: true,
      display_name: fullName(grace),
      avatar: null,
      other_user: { id: grace.user.id, username: grace.user.username, avatar: null, is_blue_verified: false },
      is_online: false,
      member_count: 2,
      last_message: 'second note',
      last_message_time: last.timestamp,
      is_admin: false,
      unread_count: 2,
    });
    expect(group).toMatchObject({
      chat_id: groupId,
      is_private: false,
      display_name: 'Analytical Engine',
      other_user: null,
      member_count: 2,
      last_message: null,
      last_message_time: null,
      is_admin: true,
      unread_count: 0,
    });

    // The partner sees the other side: Ada's name, nothing unread (own messages), not admin of the group.
    const graceList = await myChats(app(), grace.token);
    const gPriv = graceList.find((c) => c.chat_id === privateId);
    const gGroup = graceList.find((c) => c.chat_id === groupId);
    expect(gPriv).toMatchObject({ display_name: fullName(ada), unread_count: 0, is_admin: false });
    expect(gPriv.other_user.id).toBe(ada.user.id);
    expect(gGroup).toMatchObject({ is_admin: false, member_count: 2 });
  });

  it('is an empty array for someone without chats', async () => {
    const [ada] = await people(app(), 'Ada');
    const res = await app().get('/api/chats/my/', ada.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ chats: [] });
  });
});

describe('GET /api/chats/{chat_id}/', () => {
  it('puts the other party first in a private chat, for either viewer', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);

    const seenByAda = await detail(app(), ada.token, chatId);
    expect(seenByAda).toMatchObject({
      id: expect.any(Number),
      chat_id: chatId,
      is_private: true,
      display_name: fullName(grace),
      avatar: null,
    });
    expect(seenByAda.members.map((m: { id: number }) => m.id)).toEqual([grace.user.id, ada.user.id]);
    const first = seenByAda.members[0];
    expect(Object.keys(first).sort()).toEqual(MEMBER_KEYS);
    expect(first).toEqual({
      id: grace.user.id,
      username: grace.user.username,
      displayname: expect.any(String),
      name: fullName(grace),
      avatar: null,
      is_blue_verified: false,
      last_seen: null,
      is_online: false,
      role: 'member',
      profile: { name: fullName(grace), avatar: null },
    });

    const seenByGrace = await detail(app(), grace.token, chatId);
    expect(seenByGrace.display_name).toBe(fullName(ada));
    expect(seenByGrace.members.map((m: { id: number }) => m.id)).toEqual([ada.user.id, grace.user.id]);
  });

  it('names the group admin', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await createGroup(app(), ada.token, 'Engine room');
    await addMember(app(), chatId, grace.user.id);
    const d = await detail(app(), grace.token, chatId);
    expect(d).toMatchObject({
      chat_id: chatId,
      is_private: false,
      group_name: 'Engine room',
      display_name: 'Engine room',
      admin: { id: ada.user.id, profile: { name: fullName(ada) } },
    });
    expect(d.members.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [ada.user.id, 'owner'],
      [grace.user.id, 'member'],
    ]);
  });

  it("shows a deleted account as 'deleted_user' and keeps the chat for the other party", async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const adaRoom: WsClient = await joinRoom(app(), ada.token, chatId);
    await say(adaRoom, 'from ada');
    await adaRoom.close();
    await seedMessages(app(), grace.user.id, chatId, ['from grace']);

    expect((await app().deleteAccount(grace.token)).status).toBeLessThan(300);

    const d = await detail(app(), ada.token, chatId);
    expect(d.members).toHaveLength(2);
    expect(d.members[0]).toMatchObject({
      id: null,
      username: 'deleted_user',
      is_online: false,
      last_seen: null,
    });
    expect(d.members[1].id).toBe(ada.user.id);
    const item = (await myChats(app(), ada.token)).find((c) => c.chat_id === chatId);
    expect(item.other_user.username).toBe('deleted_user');
    // The deleted account's messages go with it (DESIGN §1); Ada's stay.
    expect((await history(app(), ada.token, chatId)).map((m) => m.body)).toEqual(['from ada']);
  });
});

describe('GET /api/chats/{chat_id}/messages/', () => {
  it('gives the newest 50 oldest-first by default, older pages with before/limit, catch-up with after', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const bodies = Array.from({ length: 55 }, (_, i) => `m${i + 1}`);
    const ids = await seedMessages(app(), ada.user.id, chatId, bodies);

    const page = await history(app(), grace.token, chatId);
    expect(page.map((m) => m.body)).toEqual(bodies.slice(5));
    expect(page.map((m) => m.id)).toEqual(ids.slice(5));

    const older = await history(app(), grace.token, chatId, `?before=${ids[29]}&limit=10`);
    expect(older.map((m) => m.body)).toEqual(bodies.slice(19, 29));
    const oldest = await history(app(), grace.token, chatId, `?before=${ids[5]}`);
    expect(oldest.map((m) => m.body)).toEqual(bodies.slice(0, 5));

    const missed = await history(app(), grace.token, chatId, `?after=${ids[49]}`);
    expect(missed.map((m) => m.body)).toEqual(bodies.slice(50));
    const fromStart = await history(app(), grace.token, chatId, '?after=0&limit=3');
    expect(fromStart.map((m) => m.body)).toEqual(['m1', 'm2', 'm3']);
    expect(await history(app(), grace.token, chatId, `?after=${ids[54]}`)).toEqual([]);

    for (const bad of ['?limit=0', '?limit=101', '?before=abc', '?after=-1']) {
      expect((await app().get(`/api/chats/${chatId}/messages/${bad}`, grace.token)).status, bad).toBe(400);
    }
  });

  it('has SPEC message fields', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const room = await joinRoom(app(), ada.token, chatId);
    const sent = await say(room, '  hello there  ', 'cid-1');
    await room.close();
    const [m] = await history(app(), grace.token, chatId);
    expect(m).toMatchObject({
      id: sent.id,
      sender: ada.user.id,
      sender_name: fullName(ada),
      sender_avatar: null,
      body: 'hello there',
      files: [],
      is_read: false,
      is_delivered: false,
      is_sent: true,
      is_error: false,
      timestamp: sent.timestamp,
      chatroom: chatId,
    });
    expect(new Date(m.timestamp).toISOString()).toBe(m.timestamp);
  });
});

describe('GET /api/chats/start/{idOrUsername}/', () => {
  it('starts one private chat and gives the same chat_id again, by username or id, from either side', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const first = await startChat(app(), ada.token, grace.user.username);
    expect(await startChat(app(), ada.token, grace.user.username)).toBe(first);
    expect(await startChat(app(), ada.token, grace.user.username.toUpperCase())).toBe(first);
    expect(await startChat(app(), ada.token, grace.user.id)).toBe(first);
    expect(await startChat(app(), grace.token, ada.user.username)).toBe(first);
    expect(await startChat(app(), grace.token, ada.user.id)).toBe(first);
    expect(await myChats(app(), ada.token)).toHaveLength(1);
    const rows = await app().ctx.db.selectFrom('chats').selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  // Usernames may be all digits: a username match comes before reading the target as a user id.
  it('reaches a person whose username is all digits by that username', async () => {
    const [ada] = await people(app(), 'Ada');
    const digits = await app().signUpAndVerify({ username: '987654' });
    const chatId = await startChat(app(), ada.token, '987654');
    expect((await detail(app(), ada.token, chatId)).members[0].id).toBe(digits.user.id);
  });

  it('gives one chat when both start at once', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const ids = await Promise.all([
      startChat(app(), ada.token, grace.user.username),
      startChat(app(), grace.token, ada.user.username),
      startChat(app(), ada.token, grace.user.id),
    ]);
    expect(new Set(ids).size).toBe(1);
  });

  it('refuses yourself with 400 and an unknown or unverified person with 404', async () => {
    const [ada] = await people(app(), 'Ada');
    const pending = await app().register();
    const self = await app().get(`/api/chats/start/${ada.user.username}/`, ada.token);
    expect(self.status).toBe(400);
    expect(self.body.detail).toEqual(expect.any(String));
    expect((await app().get(`/api/chats/start/${ada.user.id}/`, ada.token)).status).toBe(400);
    expect((await app().get('/api/chats/start/nobody_here_at_all/', ada.token)).status).toBe(404);
    expect((await app().get('/api/chats/start/987654/', ada.token)).status).toBe(404);
    expect((await app().get(`/api/chats/start/${pending.username}/`, ada.token)).status).toBe(404);
    expect(await myChats(app(), ada.token)).toEqual([]);
  });
});

describe('POST /api/chats/group/new/', () => {
  it('creates a group whose creator is its admin', async () => {
    const [ada] = await people(app(), 'Ada');
    const res = await app().post('/api/chats/group/new/', { group_name: '  Difference Engine  ' }, ada.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ chat_id: expect.any(String) });
    const d = await detail(app(), ada.token, res.body.chat_id);
    expect(d).toMatchObject({
      is_private: false,
      group_name: 'Difference Engine',
      admin: { id: ada.user.id },
    });
    expect(d.members).toHaveLength(1);
    const [item] = await myChats(app(), ada.token);
    expect(item).toMatchObject({ chat_id: res.body.chat_id, is_admin: true, member_count: 1 });
  });

  it('refuses a blank or missing name with 400 on group_name', async () => {
    const [ada] = await people(app(), 'Ada');
    for (const body of [{ group_name: '   ' }, { group_name: '' }, {}]) {
      const res = await app().post('/api/chats/group/new/', body, ada.token);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.group_name).toEqual([expect.any(String)]);
    }
    expect(await myChats(app(), ada.token)).toEqual([]);
  });
});

describe('access', () => {
  it('answers a non-member exactly as for a chat that does not exist', async () => {
    const [ada, grace, eve] = await people(app(), 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const groupId = await createGroup(app(), ada.token, 'Secret plans');
    await seedMessages(app(), ada.user.id, chatId, ['private words']);

    for (const id of [chatId, groupId]) {
      const d = await app().get(`/api/chats/${id}/`, eve.token);
      const m = await app().get(`/api/chats/${id}/messages/`, eve.token);
      const none = await app().get('/api/chats/no-such-chat/', eve.token);
      const noneMessages = await app().get('/api/chats/no-such-chat/messages/', eve.token);
      expect(d.status).toBe(404);
      expect(m.status).toBe(404);
      expect(d.text).toBe(none.text);
      expect(m.text).toBe(noneMessages.text);
      expect(d.text + m.text).not.toMatch(/private words|Secret plans|Ada|Grace/);
    }
    expect(await myChats(app(), eve.token)).toEqual([]);
  });

  it('needs a valid token on every chat call', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const calls: Array<[string, string]> = [
      ['GET', '/api/chats/my/'],
      ['GET', `/api/chats/${chatId}/`],
      ['GET', `/api/chats/${chatId}/messages/`],
      ['GET', `/api/chats/start/${grace.user.username}/`],
      ['POST', '/api/chats/group/new/'],
      ['POST', '/api/ws/ticket/'],
    ];
    for (const [method, path] of calls) {
      const anonymous = await app().request(method, path, {
        json: method === 'POST' ? { group_name: 'x' } : undefined,
      });
      expect(anonymous.status, `${method} ${path}`).toBe(401);
      const junk = await app().request(method, path, {
        token: 'not-a-real-token',
        json: method === 'POST' ? { group_name: 'x' } : undefined,
      });
      expect(junk.status, `${method} ${path} junk`).toBe(401);
    }
    expect(await app().ctx.db.selectFrom('chats').selectAll().execute()).toHaveLength(1);
  });
});
