import { CHANNEL_TEXT, THREAD_TEXT } from '@parley/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { history, myChats, newClientId, people, say } from '../chats/chat-helpers';
import { groupOf, newChannel } from '../groups/group-helpers';
import type { ServerProcess } from '../helpers/server-process';
import type { Json, SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { twoProcessesEnabled, useTwoProcesses } from '../helpers/two-processes';
import { joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';

// Threads: a reply under a root message of the same chat is kept out of the main timeline (unless also sent to
// the chat), counted on its root (thread_updated to the room), paged on its own, and notifies only the thread's
// followers: the root's author, each replier and each person mentioned, changed with PUT/DELETE follow/.
const app = useTestApp();

/** Sends a thread reply and waits for its echo; the stored message. */
async function reply(client: WsClient, root: number, body: string, extra: Json = {}): Promise<Json> {
  const clientId = newClientId('t');
  client.send({ type: 'chat_message', body, client_id: clientId, thread_root: root, ...extra });
  return (await client.next('chat_message', (f) => f.client_id === clientId)).message;
}

/** A refused thread reply: the error frame's text (and nothing stored, checked by the caller). */
async function refused(client: WsClient, frame: Json): Promise<string> {
  const clientId = newClientId('r');
  client.send({ type: 'chat_message', client_id: clientId, ...frame });
  return (await client.next('error', (f) => f.client_id === clientId)).message;
}

const thread = (t: TestApp, token: string, chatId: string, root: number, query = '') =>
  t.get(`/api/chats/${chatId}/messages/${root}/thread/${query}`, token);
const follow = (t: TestApp, token: string, chatId: string, root: number, on: boolean) =>
  t.request(on ? 'PUT' : 'DELETE', `/api/chats/${chatId}/messages/${root}/follow/`, { token });
const threads = (t: TestApp, token: string, query = '') => t.get(`/api/threads/${query}`, token);

async function threeInRoom(t: TestApp) {
  const {
    chatId,
    people: [ada, grace, alan],
  } = await groupOf(t, 'Team', 'Ada', 'Grace', 'Alan');
  const [adaRoom, graceRoom, alanRoom] = await Promise.all([
    joinRoom(t, ada.token, chatId),
    joinRoom(t, grace.token, chatId),
    joinRoom(t, alan.token, chatId),
  ]);
  return { chatId, ada, grace, alan, adaRoom, graceRoom, alanRoom } as const;
}

describe('replying in a thread', () => {
  it('keeps the reply out of the main history, counts it on its root and tells the room', async () => {
    const t = app();
    const { chatId, ada, grace, adaRoom, graceRoom, alanRoom } = await threeInRoom(t);
    const root = await say(adaRoom, 'Lunch plans?');
    const first = await reply(graceRoom, root.id, 'Pizza');
    expect(first).toMatchObject({ thread_root: root.id, also_in_chat: false, thread: null });
    // Everyone in the room gets the reply (a client shows it only in the thread) and the new summary.
    await alanRoom.next('chat_message', (f) => f.message.id === first.id);
    const updated = await alanRoom.next('thread_updated', (f) => f.root_id === root.id);
    expect(updated.thread).toEqual({
      reply_count: 1,
      last_reply_at: first.timestamp,
      participant_ids: [ada.user.id, grace.user.id],
    });
    const second = await reply(adaRoom, root.id, 'Sushi');
    await alanRoom.next('thread_updated', (f) => f.thread.reply_count === 2);

    const main = await history(t, grace.token, chatId);
    expect(main.map((m) => m.id)).not.toContain(first.id);
    const shownRoot = main.find((m) => m.id === root.id);
    expect(shownRoot.thread).toEqual({
      reply_count: 2,
      last_reply_at: second.timestamp,
      participant_ids: [ada.user.id, grace.user.id],
    });
    const page = await thread(t, grace.token, chatId, root.id);
    expect(page.status, page.text).toBe(200);
    expect(page.body.root.id).toBe(root.id);
    expect(page.body.results.map((m: Json) => m.body)).toEqual(['Pizza', 'Sushi']);
    expect(page.body).toMatchObject({ next_cursor: null, following: true });
    // The chat list neither previews nor counts a reply sent only to the thread.
    const alanChat = (await myChats(t, grace.token)).find((c) => c.chat_id === chatId);
    expect(alanChat.last_message).toBe('Lunch plans?');
  });

  it('pages a thread oldest first with next_cursor, and shows a reply also sent to the chat in both', async () => {
    const t = app();
    const { chatId, ada, adaRoom } = await threeInRoom(t);
    const root = await say(adaRoom, 'Long thread');
    const bodies = ['one', 'two', 'three', 'four', 'five'];
    for (const body of bodies) await reply(adaRoom, root.id, body);
    const first = await thread(t, ada.token, chatId, root.id, '?limit=2');
    expect(first.body.results.map((m: Json) => m.body)).toEqual(['one', 'two']);
    const second = await thread(t, ada.token, chatId, root.id, `?limit=2&cursor=${first.body.next_cursor}`);
    expect(second.body.results.map((m: Json) => m.body)).toEqual(['three', 'four']);
    const last = await thread(t, ada.token, chatId, root.id, `?limit=2&cursor=${second.body.next_cursor}`);
    expect(last.body).toMatchObject({ next_cursor: null });
    expect(last.body.results.map((m: Json) => m.body)).toEqual(['five']);
    expect((await thread(t, ada.token, chatId, root.id, '?cursor=abc')).status).toBe(400);

    const both = await reply(adaRoom, root.id, 'For everyone', { also_in_chat: true });
    expect(both).toMatchObject({ thread_root: root.id, also_in_chat: true });
    const main = await history(t, ada.token, chatId);
    expect(main.at(-1)).toMatchObject({ id: both.id, thread_root: root.id, also_in_chat: true });
    expect((await thread(t, ada.token, chatId, root.id)).body.results.at(-1).id).toBe(both.id);
  });

  it('refuses a root of another chat, a thread of a thread, an unknown root and a system line', async () => {
    const t = app();
    const { chatId, ada, adaRoom } = await threeInRoom(t);
    const other = await groupOf(t, 'Elsewhere', 'Eve');
    const eveRoom = await joinRoom(t, other.people[0].token, other.chatId);
    const elsewhere = await say(eveRoom, 'Not yours');
    const root = await say(adaRoom, 'Root');
    const inThread = await reply(adaRoom, root.id, 'In the thread');
    const line = (await history(t, ada.token, chatId)).find((m) => m.kind === 'system');
    for (const bad of [elsewhere.id, inThread.id, 999_999_999, line.id])
      expect(await refused(adaRoom, { body: 'no', thread_root: bad })).toBe(THREAD_TEXT.badRoot);
    const page = await thread(t, ada.token, chatId, root.id);
    expect(page.body.results.map((m: Json) => m.body)).toEqual(['In the thread']);
    // Only roots have threads to read; another chat's message is not found here.
    expect((await thread(t, ada.token, chatId, inThread.id)).status).toBe(404);
    expect((await thread(t, ada.token, chatId, elsewhere.id)).status).toBe(404);
    expect((await follow(t, ada.token, chatId, elsewhere.id, true)).status).toBe(404);
  });

  it('hides a private group’s threads from outsiders and shows a public one’s to a previewer', async () => {
    const t = app();
    const { chatId, adaRoom } = await threeInRoom(t);
    const [eve] = await people(t, 'Eve');
    const root = await say(adaRoom, 'Secret');
    await reply(adaRoom, root.id, 'Still secret');
    expect((await thread(t, eve.token, chatId, root.id)).status).toBe(404);
    expect((await follow(t, eve.token, chatId, root.id, true)).status).toBe(404);

    const [owner] = await people(t, 'Owen');
    const channel = await newChannel(t, owner.token, 'Open');
    const ownerRoom = await joinRoom(t, owner.token, channel);
    const open = await say(ownerRoom, 'Open root');
    await reply(ownerRoom, open.id, 'Open reply');
    const preview = await thread(t, eve.token, channel, open.id);
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body).toMatchObject({ following: false });
    expect(preview.body.results.map((m: Json) => m.body)).toEqual(['Open reply']);
  });

  it('lets every member of an announcement channel reply in a thread, but not also to the chat', async () => {
    const t = app();
    const [owner, member] = await people(t, 'Owen', 'Mia');
    const channel = await newChannel(t, owner.token, 'News', { posting: 'admins' });
    expect((await t.post(`/api/chats/${channel}/join/`, {}, member.token)).status).toBe(200);
    const [ownerRoom, memberRoom] = await Promise.all([
      joinRoom(t, owner.token, channel),
      joinRoom(t, member.token, channel),
    ]);
    const news = await say(ownerRoom, 'We ship today');
    const answer = await reply(memberRoom, news.id, 'Congrats!');
    expect(answer.thread_root).toBe(news.id);
    expect(await refused(memberRoom, { body: 'Loud', thread_root: news.id, also_in_chat: true })).toBe(
      CHANNEL_TEXT.adminsOnly,
    );
    expect(await refused(memberRoom, { body: 'Loud' })).toBe(CHANNEL_TEXT.adminsOnly);
  });
});

describe('following a thread', () => {
  it('notifies followers away from the room, and nobody else; follow and unfollow change that', async () => {
    const t = app();
    const { chatId, ada, alan, adaRoom, graceRoom, alanRoom } = await threeInRoom(t);
    const root = await say(adaRoom, 'Who is in?');
    await reply(graceRoom, root.id, 'Me');
    // Ada (the root's author) and Grace (a replier) follow; Alan does not.
    await Promise.all([adaRoom.close(), alanRoom.close()]);
    const [adaBell, alanBell] = await Promise.all([
      openNotifications(t, ada.token),
      openNotifications(t, alan.token),
    ]);
    const second = await reply(graceRoom, root.id, 'Still me');
    const notice = await adaBell.client.next('new_message', (f) => f.message.message_id === second.id);
    expect(notice.message).toMatchObject({ thread_root: root.id, chatroom_id: chatId });
    // Ada's count has the unread replies of the thread she follows; the chat's own count does not.
    await adaBell.client.next('notification_count', (f) => f.count === adaBell.count + 1);
    expect((await myChats(t, ada.token)).find((c) => c.chat_id === chatId).unread_count).toBe(0);

    expect((await follow(t, alan.token, chatId, root.id, true)).status).toBe(204);
    expect((await follow(t, ada.token, chatId, root.id, false)).status).toBe(204);
    const third = await reply(graceRoom, root.id, 'Third');
    await alanBell.client.next('new_message', (f) => f.message.message_id === third.id);
    const adaAfter = (await thread(t, ada.token, chatId, root.id)).body;
    expect(adaAfter.following).toBe(false);
    // A message of the main timeline still reaches everyone away: the end of the wait for Ada's socket.
    const plain = await say(graceRoom, 'Main timeline');
    await adaBell.client.next('new_message', (f) => f.message.message_id === plain.id);
    expect(
      adaBell.client.frames.filter((f) => f.type === 'new_message' && f.message.message_id === third.id),
    ).toEqual([]);
    expect(
      alanBell.client.frames.filter((f) => f.type === 'new_message' && f.message.message_id === second.id),
    ).toEqual([]);
    await Promise.all([adaBell.client.close(), alanBell.client.close(), graceRoom.close()]);
  });

  it('makes a mentioned member follow, and lists followed threads with unread counts until read', async () => {
    const t = app();
    const { chatId, ada, grace, alan, adaRoom, graceRoom, alanRoom } = await threeInRoom(t);
    const older = await say(adaRoom, 'Older topic');
    const root = await say(adaRoom, 'Newer topic');
    await reply(adaRoom, older.id, 'Old reply');
    await reply(graceRoom, root.id, `Asking @${alan.user.username}`);
    const second = await reply(graceRoom, root.id, 'Anyone?');

    const list = await threads(t, alan.token);
    expect(list.status, list.text).toBe(200);
    expect(list.body.next_cursor).toBeNull();
    expect(list.body.results).toHaveLength(1);
    expect(list.body.results[0]).toMatchObject({
      chat_id: chatId,
      chat_name: 'Team',
      is_private: false,
      unread_count: 2,
    });
    expect(list.body.results[0].root).toMatchObject({ id: root.id, thread: { reply_count: 2 } });
    expect(list.body.results[0].last_replies.map((m: Json) => m.body)).toEqual([
      `Asking @${alan.user.username}`,
      'Anyone?',
    ]);
    // Ada follows both (author of each): newest activity first; her own replies are never unread.
    const adas = await threads(t, ada.token);
    expect(adas.body.results.map((r: Json) => [r.root.id, r.unread_count])).toEqual([
      [root.id, 2],
      [older.id, 0],
    ]);

    // The chat list counts the thread's unread replies beside the chat's own: together, the notification total.
    const bell = await openNotifications(t, alan.token);
    const before = (await myChats(t, alan.token)).find((c) => c.chat_id === chatId);
    expect([before.unread_count, before.thread_unread_count, bell.count]).toEqual([2, 2, 4]);
    alanRoom.send({ type: 'read_messages', message_ids: [second.id], thread_root: root.id });
    await bell.client.next('notification_count', (f) => f.count === bell.count - 2);
    expect((await threads(t, alan.token)).body.results[0].unread_count).toBe(0);
    // Reading the thread leaves the chat's own marks alone: Ada's two roots are still unread.
    const after = (await myChats(t, alan.token)).find((c) => c.chat_id === chatId);
    expect([after.unread_count, after.thread_unread_count]).toEqual([2, 0]);
    await bell.client.close();
    expect((await threads(t, grace.token, '?cursor=x')).status).toBe(400);
    expect((await t.get('/api/threads/')).status).toBe(401);
  });
});

describe('messages in threads', () => {
  it('edits, deletes, reacts and searches inside a thread; a deleted root keeps its thread', async () => {
    const t = app();
    const { chatId, ada, grace, adaRoom, graceRoom } = await threeInRoom(t);
    const root = await say(adaRoom, 'Design review');
    const answer = await reply(graceRoom, root.id, 'Looks marvellous');
    const edited = await t.request('PATCH', `/api/chats/${chatId}/messages/${answer.id}/`, {
      token: grace.token,
      json: { body: 'Looks splendid' },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body).toMatchObject({ thread_root: root.id, body: 'Looks splendid' });
    const reacted = await t.request('PUT', `/api/chats/${chatId}/messages/${answer.id}/reactions/👍/`, {
      token: ada.token,
    });
    expect(reacted.status, reacted.text).toBe(200);
    const found = await t.get('/api/search/messages/?q=splendid', ada.token);
    expect(found.body.results[0].message).toMatchObject({ id: answer.id, thread_root: root.id });

    expect((await t.del(`/api/chats/${chatId}/messages/${root.id}/`, ada.token)).status).toBe(204);
    const page = await thread(t, grace.token, chatId, root.id);
    expect(page.body.root).toMatchObject({ is_deleted: true, body: '', thread: { reply_count: 1 } });
    expect(page.body.results[0]).toMatchObject({ body: 'Looks splendid', reactions: [{ emoji: '👍' }] });
    expect((await t.del(`/api/chats/${chatId}/messages/${answer.id}/`, grace.token)).status).toBe(204);
    expect((await thread(t, grace.token, chatId, root.id)).body.results[0]).toMatchObject({
      is_deleted: true,
    });
  });

  it('lets a reconnecting client catch up on the thread activity it missed', async () => {
    const t = app();
    const { chatId, ada, graceRoom, adaRoom } = await threeInRoom(t);
    const root = await say(adaRoom, 'Catch me up');
    await adaRoom.close();
    await reply(graceRoom, root.id, 'While you were away');
    await reply(graceRoom, root.id, 'And again');
    const back = await joinRoom(t, ada.token, chatId);
    // The loaded stretch read again carries the root's new summary; the thread's page the replies.
    const again = await history(t, ada.token, chatId, `?before=${root.id + 1}`);
    expect(again.find((m) => m.id === root.id).thread.reply_count).toBe(2);
    const page = await thread(t, ada.token, chatId, root.id);
    expect(page.body.results.map((m: Json) => m.body)).toEqual(['While you were away', 'And again']);
    await back.close();
  });
});

describe.skipIf(!twoProcessesEnabled)('threads across two processes', () => {
  const processes = useTwoProcesses();
  let a: ServerProcess;
  let b: ServerProcess;
  let ada: SignedUp;
  let grace: SignedUp;
  const WAIT = 10_000;

  beforeAll(async () => {
    ({ a, b } = processes());
    ada = await a.signUp({ first_name: 'Ada', last_name: 'Tester' });
    grace = await b.signUp({ first_name: 'Grace', last_name: 'Tester' });
  }, 60_000);

  it('a reply on B reaches the room on A with the thread’s new summary', async () => {
    const made = await a.request('POST', '/api/chats/group/new/', {
      token: ada.token,
      json: { group_name: 'Across', visibility: 'public' },
    });
    expect(made.status, made.text).toBe(200);
    const chatId: string = made.body.chat_id;
    expect(
      (await b.request('POST', `/api/chats/${chatId}/join/`, { token: grace.token, json: {} })).status,
    ).toBe(200);
    const adaRoom = (await a.joinRoom(ada.token, chatId, 'ada')).client;
    const graceRoom = (await b.joinRoom(grace.token, chatId, 'grace')).client;
    adaRoom.send({ type: 'chat_message', body: 'Root on A', client_id: 'a-root' });
    const root = (await adaRoom.next('chat_message', (f) => f.client_id === 'a-root', WAIT)).message;
    graceRoom.send({ type: 'chat_message', body: 'Reply on B', client_id: 'b-1', thread_root: root.id });
    const seen = await adaRoom.next('chat_message', (f) => f.message.body === 'Reply on B', WAIT);
    expect(seen.message.thread_root).toBe(root.id);
    const updated = await adaRoom.next('thread_updated', (f) => f.root_id === root.id, WAIT);
    expect(updated.thread).toMatchObject({ reply_count: 1, participant_ids: [ada.user.id, grace.user.id] });
    const page = await b.request('GET', `/api/chats/${chatId}/messages/${root.id}/thread/`, {
      token: ada.token,
    });
    expect(page.body.results.map((m: Json) => m.body)).toEqual(['Reply on B']);
    await Promise.all([adaRoom.close(), graceRoom.close()]);
  });
});
