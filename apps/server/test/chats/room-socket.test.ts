import { SOCKET_ERRORS } from '@parley/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { connectWs, joinRoom, roomPath, type WsClient } from '../helpers/ws-client';
import {
  adaAndGraceInRoom,
  addMember,
  createGroup,
  history,
  messageWith,
  people,
  say,
  startChat,
} from './chat-helpers';

// WS /ws/chatroom/{chat_id}/ (SPEC §4, §7; DESIGN §6, §7): messages stored then broadcast,
// client_id idempotence, typing, reads and deliveries, room occupancy, error frames that leave the socket
// usable, the rate limit, per-chat order under concurrent senders and catch-up after a drop.
const app = useTestApp();

afterEach(() => {
  vi.useRealTimers();
});

/** A group of three (Ada admin) with everyone in the room. */
async function groupOfThree(t: TestApp) {
  const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
  const chatId = await createGroup(t, ada.token, 'Bletchley');
  await addMember(t, chatId, grace.user.id);
  await addMember(t, chatId, alan.user.id);
  return { ada, grace, alan, chatId };
}

/** A private chat between Ada and Grace with both in the room. */
async function pairInRoom(t: TestApp) {
  const pair = await adaAndGraceInRoom(t);
  await pair.adaRoom.next('in_chat_count', (f) => f.count === 2);
  return pair;
}

const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));

describe('chat_message', () => {
  it('is stored, then broadcast to every member in the room, the sender included, with its client_id', async () => {
    const { ada, grace, alan, chatId } = await groupOfThree(app());
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const graceRoom = await joinRoom(app(), grace.token, chatId);
    const alanRoom = await joinRoom(app(), alan.token, chatId);

    adaRoom.send({ type: 'chat_message', body: 'Hello, room', client_id: 'ada-1' });
    const atGrace = await graceRoom.next('chat_message');
    // Committed before it was broadcast: the history already has it when the frame arrives.
    const stored = await history(app(), grace.token, chatId);
    expect(stored.map((m) => m.id)).toEqual([atGrace.message.id]);

    const frames = [atGrace, await adaRoom.next('chat_message'), await alanRoom.next('chat_message')];
    for (const f of frames) {
      expect(f.client_id).toBe('ada-1');
      expect(f.message).toMatchObject({
        id: stored[0].id,
        sender: ada.user.id,
        sender_name: 'Ada Tester',
        body: 'Hello, room',
        chatroom: chatId,
        is_sent: true,
        is_read: false,
        files: [],
      });
      expect(f.message).toEqual(frames[0]?.message);
    }
    await closeAll(adaRoom, graceRoom, alanRoom);
  });

  it('stores a resend with the same client_id once and announces the stored message again', async () => {
    const { grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const first = await say(adaRoom, 'exactly once', 'dup-1');
    await graceRoom.next('chat_message', (f) => f.client_id === 'dup-1');

    // A resend (the sender missed the echo) is answered with the stored message, announced to the room again
    // in case the first broadcast never left a crashed server; clients merge it by id.
    adaRoom.send({ type: 'chat_message', body: 'exactly once', client_id: 'dup-1' });
    const echo = await adaRoom.next('chat_message', (f) => f.client_id === 'dup-1');
    expect(echo.message.id).toBe(first.id);
    expect(echo.message.body).toBe('exactly once');
    const again = await graceRoom.next('chat_message', (f) => f.client_id === 'dup-1');
    expect(again.message.id).toBe(first.id);

    await say(adaRoom, 'after the resend', 'dup-2');
    expect((await graceRoom.next('chat_message')).client_id).toBe('dup-2');

    const stored = await history(app(), grace.token, chatId);
    expect(stored.map((m) => m.body)).toEqual(['exactly once', 'after the resend']);
    await closeAll(adaRoom, graceRoom);
  });

  it('keeps client_ids per sender: the same client_id from someone else is a new message', async () => {
    const { grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const a = await say(adaRoom, 'from ada', 'same-id');
    const g = await say(graceRoom, 'from grace', 'same-id');
    expect(g.id).not.toBe(a.id);
    expect((await history(app(), grace.token, chatId)).map((m) => m.body)).toEqual([
      'from ada',
      'from grace',
    ]);
    await closeAll(adaRoom, graceRoom);
  });
});

describe('chat_message client_id across chats', () => {
  // client_id is unique per sender and chat: reusing one in another chat is a new message there.
  it("never answers a client_id reused in another chat with the other chat's message", async () => {
    const [ada, grace, alan] = await people(app(), 'Ada', 'Grace', 'Alan');
    const withGrace = await startChat(app(), ada.token, grace.user.username);
    const withAlan = await startChat(app(), ada.token, alan.user.username);
    const graceRoom = await joinRoom(app(), ada.token, withGrace);
    const alanRoom = await joinRoom(app(), ada.token, withAlan);
    const first = await say(graceRoom, 'for grace', 'reused');
    alanRoom.send({ type: 'chat_message', body: 'for alan', client_id: 'reused' });
    await say(alanRoom, 'barrier');
    expect(alanRoom.received('chat_message', (f) => f.message.id === first.id)).toEqual([]);
    expect((await history(app(), grace.token, withGrace)).map((m) => m.body)).toEqual(['for grace']);
    await closeAll(graceRoom, alanRoom);
  });
});

describe('typing', () => {
  it('is relayed to the others in the room but not to the typist', async () => {
    const { ada, grace, alan, chatId } = await groupOfThree(app());
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const graceRoom = await joinRoom(app(), grace.token, chatId);
    const alanRoom = await joinRoom(app(), alan.token, chatId);

    adaRoom.send({ type: 'typing', is_typing: true });
    for (const c of [graceRoom, alanRoom]) {
      expect(await c.next('typing')).toEqual({
        type: 'typing',
        user_id: ada.user.id,
        username: ada.user.username,
        is_typing: true,
      });
    }
    adaRoom.send({ type: 'typing', is_typing: false });
    expect((await graceRoom.next('typing')).is_typing).toBe(false);

    // Ada's frames are handled in order: her own message echo comes after any typing she could have got.
    await say(adaRoom, 'done typing');
    expect(adaRoom.received('typing')).toEqual([]);
    await closeAll(adaRoom, graceRoom, alanRoom);
  });
});

describe('read_messages and messages_delivered', () => {
  it('read_messages stores the reads and sends messages_read {message_ids, user_id} to the room', async () => {
    const { ada, grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const m1 = await say(adaRoom, 'one');
    const m2 = await say(adaRoom, 'two');
    let stored = await history(app(), ada.token, chatId);
    expect(stored.map((m) => [m.is_delivered, m.is_read])).toEqual([
      [false, false],
      [false, false],
    ]);

    graceRoom.send({ type: 'read_messages', message_ids: [m1.id, m2.id] });
    const read = await adaRoom.next('messages_read');
    expect(read).toEqual({ type: 'messages_read', message_ids: [m1.id, m2.id], user_id: grace.user.id });
    expect((await graceRoom.next('messages_read')).user_id).toBe(grace.user.id);

    stored = await history(app(), ada.token, chatId);
    expect(stored.map((m) => [m.id, m.is_delivered, m.is_read])).toEqual([
      [m1.id, true, true],
      [m2.id, true, true],
    ]);
    await closeAll(adaRoom, graceRoom);
  });

  it('in a group, a message is read once every other member has read it', async () => {
    const { ada, grace, alan, chatId } = await groupOfThree(app());
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const graceRoom = await joinRoom(app(), grace.token, chatId);
    const alanRoom = await joinRoom(app(), alan.token, chatId);
    const m = await say(adaRoom, 'group news');

    graceRoom.send({ type: 'read_messages', message_ids: [m.id] });
    await adaRoom.next('messages_delivered', (f) => f.message_ids.includes(m.id));
    expect((await history(app(), ada.token, chatId))[0].is_read).toBe(false);

    alanRoom.send({ type: 'read_messages', message_ids: [m.id] });
    const read = await adaRoom.next('messages_read');
    expect(read).toEqual({ type: 'messages_read', message_ids: [m.id], user_id: alan.user.id });
    expect(adaRoom.received('messages_read')).toHaveLength(1);
    expect((await history(app(), ada.token, chatId))[0].is_read).toBe(true);
    await closeAll(adaRoom, graceRoom, alanRoom);
  });

  it('never reports a reader who has read receipts off', async () => {
    const { ada, grace, alan, chatId } = await groupOfThree(app());
    const off = await app().put('/api/users/profile/settings/', { read_receipt: false }, alan.token);
    expect(off.status, off.text).toBe(200);
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const graceRoom = await joinRoom(app(), grace.token, chatId);
    const alanRoom = await joinRoom(app(), alan.token, chatId);
    const m = await say(adaRoom, 'read me');

    alanRoom.send({ type: 'read_messages', message_ids: [m.id] });
    await adaRoom.next('messages_delivered', (f) => f.message_ids.includes(m.id));
    graceRoom.send({ type: 'read_messages', message_ids: [m.id] });
    expect(await adaRoom.next('messages_read')).toMatchObject({
      message_ids: [m.id],
      user_id: grace.user.id,
    });

    // Alan reads a message that Grace has already read (so it is read for Ada either way); then a barrier
    // message: everything sent before it has arrived.
    const m2 = await say(adaRoom, 'and me');
    graceRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    expect(await adaRoom.next('messages_read')).toMatchObject({
      message_ids: [m2.id],
      user_id: grace.user.id,
    });
    alanRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    await adaRoom.next('messages_delivered', (f) => f.message_ids.includes(m2.id));
    await say(alanRoom, 'barrier');
    for (const c of [adaRoom, graceRoom, alanRoom]) {
      expect(c.received('messages_read', (f) => f.user_id === alan.user.id)).toEqual([]);
    }
    await closeAll(adaRoom, graceRoom, alanRoom);
  });

  it('in a private chat with read receipts off, messages show delivered but never read', async () => {
    const { ada, grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    expect(
      (await app().put('/api/users/profile/settings/', { read_receipt: false }, grace.token)).status,
    ).toBe(200);
    const m = await say(adaRoom, 'did you read this?');
    graceRoom.send({ type: 'read_messages', message_ids: [m.id] });
    expect(await adaRoom.next('messages_delivered')).toEqual({
      type: 'messages_delivered',
      message_ids: [m.id],
    });
    await say(graceRoom, 'barrier');
    expect(adaRoom.received('messages_read')).toEqual([]);
    expect(graceRoom.received('messages_read')).toEqual([]);
    const [stored] = await history(app(), ada.token, chatId);
    expect(stored).toMatchObject({ id: m.id, is_delivered: true, is_read: false });
    // Grace's own unread count is still cleared: the read was stored, only not reported.
    const item = (await app().get('/api/chats/my/', grace.token)).body.chats[0];
    expect(item.unread_count).toBe(0);
    await closeAll(adaRoom, graceRoom);
  });

  it('messages_delivered from a recipient is broadcast and marks the messages delivered', async () => {
    const { ada, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const m1 = await say(adaRoom, 'arrived?');
    const m2 = await say(adaRoom, 'not yet acknowledged');
    graceRoom.send({ type: 'messages_delivered', message_ids: [m1.id] });
    expect(await adaRoom.next('messages_delivered')).toEqual({
      type: 'messages_delivered',
      message_ids: [m1.id],
    });
    expect(await graceRoom.next('messages_delivered')).toMatchObject({ message_ids: [m1.id] });
    const stored = await history(app(), ada.token, chatId);
    expect(stored.map((m) => [m.id, m.is_delivered, m.is_read])).toEqual([
      [m1.id, true, false],
      [m2.id, false, false],
    ]);
    await closeAll(adaRoom, graceRoom);
  });

  it("ignores ids of another chat's messages", async () => {
    const [ada, grace, eve] = await people(app(), 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const eveChat = await startChat(app(), eve.token, ada.user.username);
    const adaRoom = await joinRoom(app(), ada.token, chatId);
    const m = await say(adaRoom, 'for grace only');
    const eveRoom = await joinRoom(app(), eve.token, eveChat);
    eveRoom.send({ type: 'read_messages', message_ids: [m.id] });
    eveRoom.send({ type: 'messages_delivered', message_ids: [m.id] });
    await say(eveRoom, 'barrier');
    expect(adaRoom.received('messages_read')).toEqual([]);
    expect(adaRoom.received('messages_delivered')).toEqual([]);
    const [stored] = await history(app(), ada.token, chatId);
    expect(stored).toMatchObject({ id: m.id, is_delivered: false, is_read: false });
    await closeAll(adaRoom, eveRoom);
  });
});

describe('room occupancy', () => {
  it('sends in_chat_users_update and in_chat_count as people join and leave', async () => {
    const [ada, grace] = await people(app(), 'Ada', 'Grace');
    const chatId = await startChat(app(), ada.token, grace.user.username);
    const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
    const both = sorted([ada.user.id, grace.user.id]);

    const adaRoom = await connectWs(app(), roomPath(chatId), ada.token);
    expect(await adaRoom.next('in_chat_users_update')).toEqual({
      type: 'in_chat_users_update',
      user_ids: [ada.user.id],
    });
    expect(await adaRoom.next('in_chat_count')).toEqual({ type: 'in_chat_count', count: 1 });

    const graceRoom = await connectWs(app(), roomPath(chatId), grace.token);
    for (const c of [adaRoom, graceRoom]) {
      expect(sorted((await c.next('in_chat_users_update')).user_ids)).toEqual(both);
      expect((await c.next('in_chat_count')).count).toBe(2);
    }

    // A second socket of the same person does not count twice, nor does its closing.
    const adaAgain = await joinRoom(app(), ada.token, chatId);
    await adaAgain.close();
    for (const c of [adaRoom, graceRoom]) {
      for (let i = 0; i < 2; i++) {
        expect(sorted((await c.next('in_chat_users_update')).user_ids)).toEqual(both);
        expect((await c.next('in_chat_count')).count).toBe(2);
      }
    }

    await graceRoom.close();
    expect(await adaRoom.next('in_chat_users_update')).toMatchObject({ user_ids: [ada.user.id] });
    expect(await adaRoom.next('in_chat_count')).toMatchObject({ count: 1 });
    await adaRoom.close();
  });
});

describe('error frames', () => {
  it('answers bad input with an error frame and keeps the socket usable', async () => {
    const { grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const oversized = JSON.stringify({ type: 'chat_message', body: 'x'.repeat(64 * 1024), client_id: 'big' });
    expect(Buffer.byteLength(oversized)).toBeGreaterThan(64 * 1024);
    const cases: Array<[string, string | object, string]> = [
      ['unparseable', '{"type": "chat_message", "body": ', 'Invalid message format'],
      ['not an object', '"hello"', 'Invalid message format'],
      ['unknown type', { type: 'shout', body: 'hi' }, 'Invalid message format'],
      ['wrong field type', { type: 'typing', is_typing: 'yes' }, 'Invalid message format'],
      ['oversized', oversized, SOCKET_ERRORS.tooLarge],
      ['blank body', { type: 'chat_message', body: ' \n\t ', client_id: 'blank' }, SOCKET_ERRORS.blank],
      ['missing body', { type: 'chat_message' }, SOCKET_ERRORS.blank],
      [
        'too long',
        { type: 'chat_message', body: 'y'.repeat(4097), client_id: 'long' },
        SOCKET_ERRORS.tooLong,
      ],
    ];
    const good: string[] = [];
    for (const [what, frame, message] of cases) {
      adaRoom.send(frame);
      const error = await adaRoom.next('error');
      expect(error.message, what).toBe(message);
      expect(adaRoom.isOpen, what).toBe(true);
      const body = `fine after ${what}`;
      good.push(body);
      expect((await say(adaRoom, body)).body, what).toBe(body);
    }
    expect(adaRoom.received('error', (f) => f.client_id === 'blank')).toHaveLength(1);
    expect(adaRoom.received('error', (f) => f.client_id === 'long')).toHaveLength(1);

    // Exactly 4096 characters is allowed.
    const longest = 'z'.repeat(4096);
    expect((await say(adaRoom, longest)).body).toBe(longest);
    good.push(longest);

    expect(graceRoom.received('error')).toEqual([]);
    expect((await history(app(), grace.token, chatId)).map((m) => m.body)).toEqual(good);
    await closeAll(adaRoom, graceRoom);
  });

  it('refuses the 21st message within 10 s with a rate_limited error, then accepts again after the window', async () => {
    const { ada, grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    for (let i = 1; i <= 21; i++)
      adaRoom.send({ type: 'chat_message', body: `burst ${i}`, client_id: `r-${i}` });
    const error = await adaRoom.next('error');
    expect(error).toEqual({
      type: 'error',
      message: SOCKET_ERRORS.rateLimited,
      code: 'rate_limited',
      client_id: 'r-21',
    });
    const echoes = await adaRoom.take('chat_message', 20);
    expect(echoes.map((f) => f.client_id)).toEqual(Array.from({ length: 20 }, (_, i) => `r-${i + 1}`));
    expect(adaRoom.isOpen).toBe(true);

    // Still limited within the window, on any of the sender's sockets.
    const adaAgain = await joinRoom(app(), ada.token, chatId);
    adaAgain.send({ type: 'chat_message', body: 'too soon', client_id: 'soon' });
    expect((await adaAgain.next('error')).code).toBe('rate_limited');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 10_001);
    expect((await say(adaRoom, 'after the window', 'later')).body).toBe('after the window');

    const stored = await history(app(), grace.token, chatId);
    expect(stored).toHaveLength(21);
    expect(stored.map((m) => m.body)).not.toContain('burst 21');
    expect(stored.map((m) => m.body)).not.toContain('too soon');
    await closeAll(adaRoom, graceRoom, adaAgain);
  });
});

describe('order and recovery', () => {
  it('keeps per-chat order under concurrent senders: nothing lost, duplicated or reordered per sender', async () => {
    const { grace, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    const N = 20;
    for (let i = 0; i < N; i++) {
      adaRoom.send({ type: 'chat_message', body: `a${i}`, client_id: `a-${i}` });
      graceRoom.send({ type: 'chat_message', body: `g${i}`, client_id: `g-${i}` });
    }
    const atAda = await adaRoom.take('chat_message', 2 * N);
    const atGrace = await graceRoom.take('chat_message', 2 * N);

    const stored = await history(app(), grace.token, chatId);
    expect(stored).toHaveLength(2 * N);
    const ids = stored.map((m) => m.id);
    for (let i = 1; i < ids.length; i++) expect(ids[i]).toBeGreaterThan(ids[i - 1]);
    const bodies = stored.map((m) => m.body);
    expect(bodies.filter((b) => b.startsWith('a'))).toEqual(Array.from({ length: N }, (_, i) => `a${i}`));
    expect(bodies.filter((b) => b.startsWith('g'))).toEqual(Array.from({ length: N }, (_, i) => `g${i}`));

    // Every socket got every stored message exactly once.
    for (const frames of [atAda, atGrace]) {
      expect(frames.map((f) => f.message.id).sort((a, b) => a - b)).toEqual(ids);
    }
    await closeAll(adaRoom, graceRoom);
  });

  it('after a drop, ?after=<last id seen> returns exactly what was sent meanwhile', async () => {
    const { ada, chatId, adaRoom, graceRoom } = await pairInRoom(app());
    await say(graceRoom, 'before the drop');
    const lastSeen = (await messageWith(adaRoom, 'before the drop')).message.id;

    await adaRoom.close();
    await graceRoom.next('in_chat_count', (f) => f.count === 1);
    const meanwhile: Array<{ id: number }> = [];
    for (const body of ['missed 1', 'missed 2', 'missed 3']) meanwhile.push(await say(graceRoom, body));

    const back = await joinRoom(app(), ada.token, chatId);
    const missed = await history(app(), ada.token, chatId, `?after=${lastSeen}`);
    expect(missed.map((m) => m.body)).toEqual(['missed 1', 'missed 2', 'missed 3']);
    expect(missed.map((m) => m.id)).toEqual(meanwhile.map((m) => m.id));
    // And live delivery resumes on the new socket.
    await say(graceRoom, 'welcome back');
    expect((await back.next('chat_message')).message.body).toBe('welcome back');
    await closeAll(back, graceRoom);
  });
});
