import path from 'node:path';
import { CHANNELS_PAGE_SIZE, CLOSE_NOT_FOUND, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import SQLite from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullName, history, myChats, people, say } from '../chats/chat-helpers';
import type { ServerProcess } from '../helpers/server-process';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { connectWs, joinRoom, roomPath } from '../helpers/ws-client';
import {
  chatRow,
  groupOf,
  memberRows,
  messageCount,
  newChannel,
  patchGroup,
  systemLines,
  watchRoom,
} from './group-helpers';

// Public groups (channels): created or switched public by an admin, listed in the directory (most members first,
// matched by the starts of words, accents aside), previewed by anyone signed in (history, detail and the room's
// messages live, never presence or receipts, never a post or a reaction) and joined with '{name} joined'. A
// private group stays invisible to outsiders: 404, never 403.
const app = useTestApp();

const join = (t: TestApp, token: string, chatId: string) => t.post(`/api/chats/${chatId}/join/`, {}, token);
const directory = (t: TestApp, token: string, query = '') => t.get(`/api/channels/${query}`, token);

describe('creating and changing a public group', () => {
  it('takes visibility, description and posting on creation and carries them in the detail', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const chatId = await newChannel(t, ada.token, 'Lounge', { description: 'Say hi', posting: 'everyone' });
    const detail = await t.get(`/api/chats/${chatId}/`, ada.token);
    expect(detail.body).toMatchObject({
      visibility: 'public',
      description: 'Say hi',
      posting: 'everyone',
      is_member: true,
    });
    const plain = await t.post('/api/chats/group/new/', { group_name: 'Plain' }, ada.token);
    expect((await t.get(`/api/chats/${plain.body.chat_id}/`, ada.token)).body).toMatchObject({
      visibility: 'private',
      description: '',
      posting: 'everyone',
    });
    const long = await t.post(
      '/api/chats/group/new/',
      { group_name: 'Long', description: 'x'.repeat(501) },
      ada.token,
    );
    expect(long.status).toBe(400);
    expect(long.body.description).toBeDefined();
    expect(
      (await t.post('/api/chats/group/new/', { group_name: 'Odd', visibility: 'open' }, ada.token)).status,
    ).toBe(400);
  });

  it('lets an admin switch a group public with any subset of its fields; members may not', async () => {
    const t = app();
    const {
      chatId,
      people: [ada, grace],
    } = await groupOf(t, 'Switch', 'Ada', 'Grace');
    expect((await patchGroup(t, grace.token, chatId, { visibility: 'public' })).status).toBe(403);
    const res = await patchGroup(t, ada.token, chatId, { visibility: 'public', description: 'Now open' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ group_name: 'Switch', visibility: 'public', description: 'Now open' });
    const listed = await directory(t, grace.token, '?q=switch');
    expect(listed.body.results.map((c: { chat_id: string }) => c.chat_id)).toEqual([chatId]);
  });
});

describe('member counts', () => {
  it('keeps each group’s stored count equal to its member rows through every way in and out', async () => {
    const t = app();
    const [ada, grace, alan, eve] = await people(t, 'Ada', 'Grace', 'Alan', 'Eve');
    const chatId = await newChannel(t, ada.token, 'Counted');
    const stored = async () => {
      const chat = await chatRow(t, chatId);
      const rows = await memberRows(t, chatId);
      expect(chat?.member_count).toBe(rows.length);
      return chat?.member_count;
    };
    const listed = async () =>
      (await directory(t, eve.token, '?q=counted')).body.results[0]?.member_count as number;
    expect(await stored()).toBe(1);
    for (const p of [grace, alan]) expect((await join(t, p.token, chatId)).status).toBe(200);
    expect((await join(t, alan.token, chatId)).status).toBe(200);
    expect(await stored()).toBe(3);
    expect(await listed()).toBe(3);
    expect((await t.post(`/api/chats/${chatId}/leave/`, {}, grace.token)).status).toBe(204);
    expect(await stored()).toBe(2);
    // A deleted account's row stays, without its person, and still counts as the chat list counts it.
    expect((await t.deleteAccount(alan.token)).status).toBeLessThan(300);
    expect(await stored()).toBe(2);
    expect(await listed()).toBe(2);
  });
});

describe('GET /api/channels/', () => {
  it('lists public groups only, most members first, with their fields and whether the reader is in each', async () => {
    const t = app();
    const [ada, grace, alan, eve] = await people(t, 'Ada', 'Grace', 'Alan', 'Eve');
    const small = await newChannel(t, ada.token, 'Small talk', { description: 'Anything goes' });
    const big = await newChannel(t, grace.token, 'Big room');
    for (const p of [ada, alan]) expect((await join(t, p.token, big)).status).toBe(200);
    await t.post('/api/chats/group/new/', { group_name: 'Secret room' }, ada.token);

    const res = await directory(t, eve.token);
    expect(res.status, res.text).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.results.map((c: { chat_id: string }) => c.chat_id)).toEqual([big, small]);
    expect(res.body.results[1]).toEqual({
      chat_id: small,
      group_name: 'Small talk',
      description: 'Anything goes',
      avatar: null,
      member_count: 1,
      is_member: false,
      last_activity_at: expect.any(String),
    });
    expect(res.body.results[0]).toMatchObject({ member_count: 3, is_member: false });
    const forAda = await directory(t, ada.token);
    expect(forAda.body.results.map((c: { is_member: boolean }) => c.is_member)).toEqual([true, true]);
  });

  it('matches the starts of words of the name and description, ignoring case and accents', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const cafe = await newChannel(t, ada.token, 'Café Crème', { description: 'Morning coffee' });
    const garden = await newChannel(t, ada.token, 'Garden', { description: 'Plants and crémes' });
    const ids = async (q: string) =>
      (await directory(t, ada.token, `?q=${encodeURIComponent(q)}`)).body.results.map(
        (c: { chat_id: string }) => c.chat_id,
      );
    expect(await ids('cafe')).toEqual([cafe]);
    expect(await ids('CAF')).toEqual([cafe]);
    expect(await ids('crem')).toEqual(expect.arrayContaining([cafe, garden]));
    expect(await ids('morn')).toEqual([cafe]);
    expect(await ids('orning')).toEqual([]);
    expect(await ids('plants cr')).toEqual([garden]);
    expect(await ids('%')).toHaveLength(2);
    expect(await ids('nothing')).toEqual([]);
  });

  it('pages with next_cursor and refuses a bad cursor and the signed-out', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    const made = new Set<string>();
    for (let i = 0; i < CHANNELS_PAGE_SIZE + 3; i++) made.add(await newChannel(t, ada.token, `Room ${i}`));
    const first = await directory(t, ada.token);
    expect(first.body.results).toHaveLength(CHANNELS_PAGE_SIZE);
    expect(typeof first.body.next_cursor).toBe('string');
    const second = await directory(t, ada.token, `?cursor=${first.body.next_cursor}`);
    expect(second.body.results).toHaveLength(3);
    expect(second.body.next_cursor).toBeNull();
    const seen = [...first.body.results, ...second.body.results].map((c: { chat_id: string }) => c.chat_id);
    expect(new Set(seen)).toEqual(made);
    expect((await directory(t, ada.token, '?cursor=nonsense')).status).toBe(400);
    expect((await t.get('/api/channels/')).status).toBe(401);
  });
});

describe('the directory read again after a change', () => {
  // On SQLite the pages are kept while nothing was written (channels.service.ts): each read below follows a
  // write and must show it. On PostgreSQL nothing is kept, and the same reads must hold.
  it('shows a join, a leave, a rename, new activity and a group gone private at once', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await newChannel(t, ada.token, 'Kept room');
    const entry = async (token: string) =>
      (await directory(t, token, '?q=kept')).body.results.find(
        (c: { chat_id: string }) => c.chat_id === chatId,
      );
    expect(await entry(grace.token)).toMatchObject({ member_count: 1, is_member: false });

    expect((await join(t, grace.token, chatId)).status).toBe(200);
    expect(await entry(grace.token)).toMatchObject({ member_count: 2, is_member: true });
    expect(await entry(eve.token)).toMatchObject({ member_count: 2, is_member: false });

    expect((await t.post(`/api/chats/${chatId}/leave/`, {}, grace.token)).status).toBe(204);
    expect(await entry(eve.token)).toMatchObject({ member_count: 1 });

    const before = (await entry(eve.token)).last_activity_at;
    const room = await joinRoom(t, ada.token, chatId);
    await say(room, 'Anyone here?');
    room.close();
    expect(Date.parse((await entry(eve.token)).last_activity_at)).toBeGreaterThanOrEqual(Date.parse(before));

    expect((await patchGroup(t, ada.token, chatId, { group_name: 'Kept room, renamed' })).status).toBe(200);
    expect(await entry(eve.token)).toMatchObject({ group_name: 'Kept room, renamed' });

    expect((await patchGroup(t, ada.token, chatId, { visibility: 'private' })).status).toBe(200);
    expect(await entry(eve.token)).toBeUndefined();
  });

  it.runIf(process.env.DATABASE_URL === undefined)(
    'shows what another connection to the database file wrote (an operator’s command, a second process)',
    async () => {
      const t = app();
      const [ada] = await people(t, 'Ada');
      const chatId = await newChannel(t, ada.token, 'Written elsewhere');
      const names = async () =>
        (await directory(t, ada.token, '?q=written')).body.results.map(
          (c: { group_name: string }) => c.group_name,
        );
      expect(await names()).toEqual(['Written elsewhere']);
      const other = new SQLite(path.join(t.dataDir, 'parley.db'));
      try {
        other.prepare('UPDATE chats SET description = ? WHERE chat_id = ?').run('Changed elsewhere', chatId);
      } finally {
        other.close();
      }
      const [listed] = (await directory(t, ada.token, '?q=written')).body.results;
      expect(listed.description).toBe('Changed elsewhere');
    },
  );
});

describe('POST /api/chats/{chat_id}/join/', () => {
  it('joins a public group (idempotent): the members get "{name} joined" and the new detail live', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await newChannel(t, ada.token, 'Open house');
    const adaRoom = await joinRoom(t, ada.token, chatId);

    const res = await join(t, grace.token, chatId);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ chat_id: chatId, is_member: true, visibility: 'public' });
    const line = `${fullName(grace)} joined`;
    expect((await adaRoom.next('chat_message', (f) => f.message.kind === 'system')).message.body).toBe(line);
    const upd = await adaRoom.next('chat_updated', (f) => f.chat.members.length === 2);
    expect(upd.chat.members.map((m: { id: number; role: string }) => [m.id, m.role])).toEqual([
      [ada.user.id, 'owner'],
      [grace.user.id, 'member'],
    ]);

    const again = await join(t, grace.token, chatId);
    expect(again.status).toBe(200);
    expect(await memberRows(t, chatId)).toHaveLength(2);
    expect(systemLines(await history(t, ada.token, chatId))).toEqual([line]);
    expect((await myChats(t, grace.token)).map((c) => c.chat_id)).toContain(chatId);

    // A member of the group now: Grace posts.
    const graceRoom = await joinRoom(t, grace.token, chatId);
    await say(graceRoom, 'Hello all');
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });

  it('answers 404 for a private group, an unknown chat and a private chat, exactly as for nothing', async () => {
    const t = app();
    const {
      chatId,
      people: [, grace],
    } = await groupOf(t, 'Hidden', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const none = await join(t, eve.token, 'no-such-chat');
    const hidden = await join(t, eve.token, chatId);
    expect(none.status).toBe(404);
    expect(hidden.status).toBe(404);
    expect(hidden.body).toEqual(none.body);
    expect((await memberRows(t, chatId)).map((r) => r.user_id)).not.toContain(eve.user.id);
    // A member "joining" their own private group just gets it.
    expect((await join(t, grace.token, chatId)).status).toBe(200);
    expect((await t.post(`/api/chats/${chatId}/join/`, {})).status).toBe(401);
  });
});

describe('previewing a public group from outside', () => {
  it('reads its history and detail without anyone presence; a private group stays 404 everywhere', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const open = await newChannel(t, ada.token, 'Readable');
    expect((await join(t, grace.token, open)).status).toBe(200);
    const adaRoom = await joinRoom(t, ada.token, open);
    await say(adaRoom, 'Public words');

    const seen = await history(t, eve.token, open);
    expect(seen.map((m) => m.body)).toContain('Public words');
    const detail = await t.get(`/api/chats/${open}/`, eve.token);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ is_member: false, visibility: 'public', unread_count: 0 });
    for (const m of detail.body.members) expect([m.is_online, m.last_seen]).toEqual([false, null]);

    const {
      chatId: closed,
      people: [carol],
    } = await groupOf(t, 'Closed', 'Carol');
    await say(adaRoom, 'still here');
    expect((await t.get(`/api/chats/${closed}/`, eve.token)).status).toBe(404);
    expect((await t.get(`/api/chats/${closed}/messages/`, eve.token)).status).toBe(404);
    expect((await t.get(`/api/chats/nope/messages/`, eve.token)).status).toBe(404);
    const shut = await connectWs(t, roomPath(closed), eve.token);
    expect((await shut.closed()).code).toBe(CLOSE_NOT_FOUND);
    expect((await patchGroup(t, eve.token, closed, { group_name: 'Mine' })).status).toBe(404);
    expect((await patchGroup(t, carol.token, closed, { group_name: 'Closed still' })).status).toBe(200);
    await adaRoom.close();
  });

  it('watches the room live without posting, reacting, presence or receipts; joining reopens it as a member', async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await newChannel(t, ada.token, 'Stage');
    expect((await join(t, grace.token, chatId)).status).toBe(200);
    await t.ctx.lifecycle.settled();
    const chat = await chatRow(t, chatId);
    if (!chat) throw new Error('no chat');

    const adaRoom = await joinRoom(t, ada.token, chatId);
    const eveWatch = await watchRoom(t, eve.token, chatId);
    const before = await messageCount(t, chat.id);
    // The refused probe stored nothing.
    expect(before).toBe(1);

    // Grace comes in, types, reads: the watcher hears none of it, yet hears the message.
    const graceRoom = await joinRoom(t, grace.token, chatId);
    await adaRoom.next('in_chat_count', (f) => f.count === 2);
    graceRoom.send({ type: 'typing', is_typing: true });
    await adaRoom.next('typing', (f) => f.user_id === grace.user.id);
    const sent = await say(adaRoom, 'On stage');
    graceRoom.send({ type: 'read_messages', message_ids: [sent.id] });
    await adaRoom.next('messages_read', (f) => f.user_id === grace.user.id);
    expect((await eveWatch.next('chat_message', (f) => f.message.id === sent.id)).message.body).toBe(
      'On stage',
    );

    // Eve's own typing and reads are nothing to the room; her reaction is refused and stores nothing.
    eveWatch.send({ type: 'typing', is_typing: true });
    eveWatch.send({ type: 'read_messages', message_ids: [sent.id] });
    const reacted = await t.put(
      `/api/chats/${chatId}/messages/${sent.id}/reactions/${encodeURIComponent('👍')}/`,
      {},
      eve.token,
    );
    expect(reacted.status).toBe(404);
    const last = await say(adaRoom, 'Curtain');
    await eveWatch.next('chat_message', (f) => f.message.id === last.id);
    for (const type of [
      'typing',
      'messages_read',
      'messages_delivered',
      'in_chat_count',
      'in_chat_users_update',
    ])
      expect(eveWatch.received(type)).toEqual([]);
    expect(adaRoom.received('typing', (f) => f.user_id === eve.user.id)).toEqual([]);
    expect(adaRoom.received('messages_read', (f) => f.user_id === eve.user.id)).toEqual([]);
    expect((await history(t, ada.token, chatId)).find((m) => m.id === sent.id).reactions).toEqual([]);
    expect(await messageCount(t, chat.id)).toBe(before + 2);

    // The group's changes reach the watcher, without anyone's presence.
    expect((await patchGroup(t, ada.token, chatId, { description: 'Lights on' })).status).toBe(200);
    const upd = await eveWatch.next('chat_updated', (f) => f.chat.description === 'Lights on');
    expect(upd.chat.is_member).toBe(false);
    for (const m of upd.chat.members) expect(m.is_online).toBe(false);

    // Joining closes the watching socket with 1012 (reconnect now); reopened, it is a member's.
    const joined = join(t, eve.token, chatId);
    expect((await eveWatch.closed()).code).toBe(CLOSE_SERVICE_RESTART);
    expect((await joined).status).toBe(200);
    const eveRoom = await joinRoom(t, eve.token, chatId);
    await say(eveRoom, 'Now I speak');
    await Promise.all([adaRoom.close(), graceRoom.close(), eveRoom.close()]);
  });

  it('shows the watcher the door (4004) once the group turns private', async () => {
    const t = app();
    const [ada, eve] = await people(t, 'Ada', 'Eve');
    const chatId = await newChannel(t, ada.token, 'Closing');
    const eveWatch = await watchRoom(t, eve.token, chatId);
    expect((await patchGroup(t, ada.token, chatId, { visibility: 'private' })).status).toBe(200);
    expect((await eveWatch.closed()).code).toBe(CLOSE_NOT_FOUND);
    expect((await t.get(`/api/chats/${chatId}/messages/`, eve.token)).status).toBe(404);
    expect((await join(t, eve.token, chatId)).status).toBe(404);
  });
});

describe.skipIf(!twoProcessesEnabled)('channels across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  let eve: SignedUp;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
    eve = await b.signUp({ first_name: 'Eve', last_name: 'Tester' });
  }, 60_000);

  it('a join and a role change on B reach the room on A; a watcher on B hears messages from A', async () => {
    const made = await a.request('POST', '/api/chats/group/new/', {
      token: ada.token,
      json: { group_name: 'Across', visibility: 'public' },
    });
    expect(made.status, made.text).toBe(200);
    const chatId: string = made.body.chat_id;
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;

    const joined = await b.request('POST', `/api/chats/${chatId}/join/`, { token: grace.token, json: {} });
    expect(joined.status, joined.text).toBe(200);
    const line = await adaRoom.next('chat_message', (f) => f.message.body === 'Grace Tester joined', WAIT);
    expect(line.message.kind).toBe('system');

    const promoted = await a.request('PATCH', `/api/chats/${chatId}/members/${grace.user.id}/`, {
      token: ada.token,
      json: { role: 'admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    const demoted = await b.request('PATCH', `/api/chats/${chatId}/members/${grace.user.id}/`, {
      token: grace.token,
      json: { role: 'member' },
    });
    expect(demoted.status, demoted.text).toBe(200);
    await adaRoom.next(
      'chat_updated',
      (f) =>
        f.chat.members.some(
          (m: { id: number; role: string }) => m.id === grace.user.id && m.role === 'member',
        ),
      WAIT,
    );

    const eveWatch = await b.connect(roomPath(chatId), eve.token, 'eve watching');
    eveWatch.send({ type: 'chat_message', body: 'hi', client_id: 'e-1' });
    await eveWatch.next('error', (f) => f.client_id === 'e-1', WAIT);
    adaRoom.send({ type: 'chat_message', body: 'Across the bus', client_id: 'a-1' });
    await eveWatch.next('chat_message', (f) => f.message.body === 'Across the bus', WAIT);
    await graceRoom.next('chat_message', (f) => f.message.body === 'Across the bus', WAIT);
    expect(eveWatch.received('in_chat_count')).toEqual([]);
    await Promise.all([adaRoom.close(), graceRoom.close(), eveWatch.close()]);
  });
});
