import type { KyselyPlugin } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ChatMembership } from '../../src/modules/chats/chat-membership';
import { ReceiptBatcher } from '../../src/modules/messages/receipts';
import type { DomainEventMap } from '../../src/platform/events';
import { DomainEvents } from '../../src/platform/events';
import type { SignedUp, TestApp } from '../helpers/test-app';
import { useTestApp } from '../helpers/test-app';
import { eventually, type Frame, joinRoom, openNotifications, type WsClient } from '../helpers/ws-client';
import {
  adaAndGraceInRoom,
  addMember,
  createGroup,
  history,
  myChats,
  newClientId,
  people,
  say,
  seedMessages,
  startChat,
} from './chat-helpers';

// Read and delivery receipts, coalesced per chat (SPEC §4 ticks, §7 read_messages / messages_delivered /
// messages_read; receipts.ts): marks end right under a burst, far fewer frames than one per receipt, readers
// with read receipts off are never named, receipts for other chats, one's own messages or chats one is not in
// count for nothing, and a single read in a quiet room is still announced at once.
const app = useTestApp({ config: { messageRateLimit: 1000 } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));
const receiptFrames = (c: WsClient) => [...c.received('messages_read'), ...c.received('messages_delivered')];

/** Answers every chat_message from someone else with a read_messages for it, as a client in the room does. */
function readEachMessageAsItArrives(room: WsClient, me: number): void {
  room.ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as Frame;
    if (frame.type === 'chat_message' && frame.message?.sender !== me)
      room.send({ type: 'read_messages', message_ids: [frame.message.id] });
  });
}

/**
 * Waits until the server has handled every frame sent so far on this room socket: frames are handled in order,
 * and a malformed one is answered with an error.
 */
async function handled(room: WsClient): Promise<void> {
  room.send('not json');
  await room.next('error');
}

/**
 * Ada reads Grace's message `g`, the one receipt that counts: once a message Ada sends after it is back, each
 * room has had that read and `g`'s delivery, and no other receipt.
 */
async function onlyAdasReadOf(
  g: { id: number },
  ada: SignedUp,
  adaRoom: WsClient,
  graceRoom: WsClient,
): Promise<void> {
  adaRoom.send({ type: 'read_messages', message_ids: [g.id] });
  const read = await graceRoom.next('messages_read');
  expect(read).toEqual({ type: 'messages_read', message_ids: [g.id], user_id: ada.user.id });
  await adaRoom.next('messages_read');
  await say(adaRoom, 'barrier');
  await graceRoom.next('chat_message', (f) => f.message.body === 'barrier');
  for (const room of [adaRoom, graceRoom]) {
    expect(room.received('messages_read')).toEqual([read]);
    expect(room.received('messages_delivered')).toEqual([
      { type: 'messages_delivered', message_ids: [g.id] },
    ]);
  }
}

async function unreadIn(t: TestApp, who: SignedUp, chatId: string): Promise<number> {
  const chat = (await myChats(t, who.token)).find((c) => c.chat_id === chatId);
  expect(chat, `${who.payload.first_name} should see ${chatId}`).toBeDefined();
  return chat.unread_count;
}

describe('a burst of reads in a group', () => {
  it('ends with every mark right, and the sender gets a few merged receipt frames, none of another chat', async () => {
    const t = app();
    const members = await people(t, 'Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Frances', 'John');
    const [ada, ...readers] = members;
    const [hedy] = await people(t, 'Hedy');
    const chatId = await createGroup(t, ada.token, 'Burst');
    for (const r of readers) await addMember(t, chatId, r.user.id);
    // A second chat busy at the same time: none of its ids may leak into the group's frames.
    const sideId = await startChat(t, readers[0].token, hedy.user.username);

    const adaRoom = await joinRoom(t, ada.token, chatId);
    const readerRooms = await Promise.all(readers.map((r) => joinRoom(t, r.token, chatId)));
    const readerNotes = await Promise.all(
      readers.map(async (r) => (await openNotifications(t, r.token)).client),
    );
    readerRooms.forEach((room, i) => {
      readEachMessageAsItArrives(room, (readers[i] as SignedUp).user.id);
    });
    const sideGrace = await joinRoom(t, readers[0].token, sideId);
    const sideHedy = await joinRoom(t, hedy.token, sideId);
    readEachMessageAsItArrives(sideHedy, hedy.user.id);
    await adaRoom.next('in_chat_count', (f) => f.count === members.length, 5000);

    const COUNT = 20;
    const burst = Array.from({ length: COUNT }, (_, i) => ({
      body: `burst ${i}`,
      clientId: newClientId('b'),
    }));
    const side = Array.from({ length: 8 }, (_, i) => ({ body: `side ${i}`, clientId: newClientId('s') }));
    for (let i = 0; i < COUNT; i++) {
      const b = burst[i] as (typeof burst)[number];
      adaRoom.send({ type: 'chat_message', body: b.body, client_id: b.clientId });
      const s = side[i];
      if (s) sideGrace.send({ type: 'chat_message', body: s.body, client_id: s.clientId });
    }
    const ids: number[] = [];
    for (const b of burst)
      ids.push((await adaRoom.next('chat_message', (f) => f.client_id === b.clientId)).message.id);
    const sideIds: number[] = [];
    for (const s of side)
      sideIds.push((await sideGrace.next('chat_message', (f) => f.client_id === s.clientId)).message.id);
    const idSet = new Set(ids);

    // Every message of the burst is announced read to its sender at some point.
    const announcedRead = () => new Set(adaRoom.received('messages_read').flatMap((f) => f.message_ids));
    await eventually(
      async () => (ids.every((id) => announcedRead().has(id)) ? true : undefined),
      `messages_read for all ${COUNT} messages (announced: ${[...announcedRead()].join(',')})`,
      10_000,
    );
    await eventually(
      async () =>
        sideIds.every((id) => sideGrace.received('messages_read').some((f) => f.message_ids.includes(id)))
          ? true
          : undefined,
      'the side chat read',
      10_000,
    );

    const stored = await history(t, ada.token, chatId);
    const last = stored.filter((m) => idSet.has(m.id));
    expect(last).toHaveLength(COUNT);
    for (const m of last)
      expect({ id: m.id, is_delivered: m.is_delivered, is_read: m.is_read }).toEqual({
        id: m.id,
        is_delivered: true,
        is_read: true,
      });
    for (const r of readers) expect(await unreadIn(t, r, chatId)).toBe(0);
    for (const notes of readerNotes)
      await eventually(
        async () => (notes.received('notification_count').at(-1)?.count === 0 ? true : undefined),
        `a last notification_count of 0 (got ${JSON.stringify(notes.received('notification_count'))})`,
      );

    // Let anything still due go out before counting.
    await sleep(300);
    const frames = receiptFrames(adaRoom);
    // One frame per receipt would be 2 × 7 × 20 = 280 (and the old code sent 7 × 20 + 20 = 160); here each
    // frame carries two receipts or more on average. How many merge depends on the machine's pace (the windows
    // are timed; unit tests of ReceiptBatcher prove the merging with fake timers): 16 to 24 frames at a load
    // average of 10, more than 70 at 20.
    expect(frames.length).toBeLessThanOrEqual(140);
    for (const c of [adaRoom, ...readerRooms]) {
      for (const f of receiptFrames(c)) {
        expect(f.message_ids.length).toBeGreaterThan(0);
        for (const id of f.message_ids)
          expect(idSet.has(id), `${f.type} lists ${id}, not of this chat`).toBe(true);
      }
      for (const f of c.received('messages_read')) expect(readers.map((r) => r.user.id)).toContain(f.user_id);
    }
    for (const f of receiptFrames(sideGrace)) for (const id of f.message_ids) expect(sideIds).toContain(id);

    await closeAll(adaRoom, ...readerRooms, ...readerNotes, sideGrace, sideHedy);
  });
});

describe('read receipts off', () => {
  it('a reader with read receipts off clears their own unread count, is never named, and still delivers', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const off = await t.put('/api/users/profile/settings/', { read_receipt: false }, alan.token);
    expect(off.status, off.text).toBe(200);
    const chatId = await createGroup(t, ada.token, 'Quiet readers');
    await addMember(t, chatId, grace.user.id);
    await addMember(t, chatId, alan.user.id);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const alanRoom = await joinRoom(t, alan.token, chatId);
    const alanNotes = (await openNotifications(t, alan.token)).client;
    const rooms = [adaRoom, graceRoom, alanRoom];

    // Alan reads first: delivered for Ada, not read (Grace, who reports reads, has not read it).
    const m1 = await say(adaRoom, 'first');
    expect(await unreadIn(t, alan, chatId)).toBe(1);
    alanRoom.send({ type: 'read_messages', message_ids: [m1.id] });
    await adaRoom.next('messages_delivered', (f) => f.message_ids.includes(m1.id));
    expect(await alanNotes.next('notification_count')).toEqual({ type: 'notification_count', count: 0 });
    expect(await unreadIn(t, alan, chatId)).toBe(0);
    expect((await history(t, ada.token, chatId))[0]).toMatchObject({
      id: m1.id,
      is_delivered: true,
      is_read: false,
    });

    graceRoom.send({ type: 'read_messages', message_ids: [m1.id] });
    expect(await adaRoom.next('messages_read')).toEqual({
      type: 'messages_read',
      message_ids: [m1.id],
      user_id: grace.user.id,
    });

    // Alan reads last: the message was already read for Ada (only Grace reports), and Alan is still not named.
    const m2 = await say(adaRoom, 'second');
    graceRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    expect(await adaRoom.next('messages_read')).toEqual({
      type: 'messages_read',
      message_ids: [m2.id],
      user_id: grace.user.id,
    });
    alanRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    expect(await alanNotes.next('notification_count')).toEqual({ type: 'notification_count', count: 0 });
    // A barrier: whatever the receipts sent to the room went out before this message.
    await say(graceRoom, 'barrier');
    for (const room of [adaRoom, alanRoom])
      await room.next('chat_message', (f) => f.message.body === 'barrier');
    for (const room of rooms)
      expect(room.received('messages_read', (f) => f.user_id === alan.user.id)).toEqual([]);
    expect(await unreadIn(t, alan, chatId)).toBe(1); // Grace's barrier
    const stored = await history(t, ada.token, chatId);
    expect(stored.slice(0, 2).map((m) => [m.id, m.is_delivered, m.is_read])).toEqual([
      [m1.id, true, true],
      [m2.id, true, true],
    ]);
    await closeAll(...rooms, alanNotes);
  });
});

describe('receipts that count for nothing', () => {
  it("ids of another chat's messages change no ticks and announce nothing", async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const graceEve = await startChat(t, eve.token, grace.user.username);
    const adaEve = await startChat(t, eve.token, ada.user.username);
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const graceRoom = await joinRoom(t, grace.token, chatId);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    const m = await say(adaRoom, 'for grace');
    // Later ids than m: a reader's mark moved up to them would cover m.
    const [x1] = await seedMessages(t, eve.user.id, graceEve, ['grace knows eve']);
    await graceNotes.next('notification_count', (f) => f.count === 2);
    const [x2] = await seedMessages(t, eve.user.id, adaEve, ['grace is not in this chat']);
    const g = await say(graceRoom, 'from grace');
    const counts = graceNotes.received('notification_count').length;

    graceRoom.send({ type: 'read_messages', message_ids: [x1, x2] });
    graceRoom.send({ type: 'messages_delivered', message_ids: [x1, x2] });
    await handled(graceRoom);
    // A real receipt after them, written with or after them.
    await onlyAdasReadOf(g, ada, adaRoom, graceRoom);
    expect((await history(t, ada.token, chatId))[0]).toMatchObject({
      id: m.id,
      is_delivered: false,
      is_read: false,
    });
    expect((await history(t, eve.token, graceEve))[0]).toMatchObject({
      id: x1,
      is_delivered: false,
      is_read: false,
    });
    expect((await history(t, eve.token, adaEve))[0]).toMatchObject({
      id: x2,
      is_delivered: false,
      is_read: false,
    });
    expect(await unreadIn(t, grace, chatId)).toBe(2); // m and Ada's barrier
    expect(await unreadIn(t, grace, graceEve)).toBe(1);
    expect(graceNotes.received('notification_count')).toHaveLength(counts);
    await closeAll(adaRoom, graceRoom, graceNotes);
  });

  it("the reader's own messages change no ticks and announce nothing (reading one's own message does not pass others' unread ones)", async () => {
    const t = app();
    const { ada, grace, chatId, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const m = await say(adaRoom, 'unread by grace');
    const g = await say(graceRoom, 'grace writes without reading');
    await adaRoom.next('chat_message', (f) => f.message.id === g.id);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    expect(await unreadIn(t, grace, chatId)).toBe(1);

    graceRoom.send({ type: 'read_messages', message_ids: [g.id] });
    graceRoom.send({ type: 'messages_delivered', message_ids: [g.id] });
    await handled(graceRoom);
    await onlyAdasReadOf(g, ada, adaRoom, graceRoom);
    const stored = await history(t, ada.token, chatId);
    expect(stored[0]).toMatchObject({ id: m.id, is_delivered: false, is_read: false });
    expect(await unreadIn(t, grace, chatId)).toBe(2); // m and Ada's barrier
    expect(graceNotes.received('notification_count')).toHaveLength(1);
    await closeAll(adaRoom, graceRoom, graceNotes);
  });

  it("a non-member's delivery ack over the notification socket counts for nothing; a member's marks delivered", async () => {
    const t = app();
    const [ada, grace, eve] = await people(t, 'Ada', 'Grace', 'Eve');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const graceNotes = (await openNotifications(t, grace.token)).client;
    const eveNotes = (await openNotifications(t, eve.token)).client;
    const adaRoom = await joinRoom(t, ada.token, chatId);
    const m1 = await say(adaRoom, 'one');
    const m2 = await say(adaRoom, 'two');
    await graceNotes.take('new_message', 2);

    eveNotes.send({ type: 'messages_delivered', chatroom_id: chatId, message_ids: [m1.id, m2.id] });
    eveNotes.send({ type: 'messages_delivered', chatroom_id: 'no-such-chat', message_ids: [m1.id, m2.id] });
    // The notification socket answers garbage with an error: the acks before it have been taken.
    eveNotes.send('not json');
    await eveNotes.next('error');
    await sleep(150);
    expect((await history(t, ada.token, chatId)).map((m) => [m.id, m.is_delivered, m.is_read])).toEqual([
      [m1.id, false, false],
      [m2.id, false, false],
    ]);

    graceNotes.send({ type: 'messages_delivered', chatroom_id: chatId, message_ids: [m1.id] });
    expect(await adaRoom.next('messages_delivered')).toEqual({
      type: 'messages_delivered',
      message_ids: [m1.id],
    });
    await say(adaRoom, 'barrier');
    expect(adaRoom.received('messages_delivered')).toHaveLength(1);
    expect(adaRoom.received('messages_read')).toEqual([]);
    expect(
      (await history(t, ada.token, chatId)).slice(0, 2).map((m) => [m.id, m.is_delivered, m.is_read]),
    ).toEqual([
      [m1.id, true, false],
      [m2.id, false, false],
    ]);
    // Eve is told nothing of the chat, and her socket stays usable.
    expect(eveNotes.received('new_message')).toEqual([]);
    expect(eveNotes.isOpen).toBe(true);
    await closeAll(adaRoom, graceNotes, eveNotes);
  });
});

describe('single receipts in a quiet room', () => {
  it('a single read is announced: messages_delivered then messages_read, one of each', async () => {
    const t = app();
    const { grace, adaRoom, graceRoom } = await adaAndGraceInRoom(t);
    const m = await say(adaRoom, 'quick?');
    await graceRoom.next('chat_message', (f) => f.message.id === m.id);

    // That the first receipts after a quiet spell are written at once, not after a window, is held by the unit
    // tier's clock (modules/messages/receipts.test.ts); a wall clock here would measure the machine's load.
    graceRoom.send({ type: 'read_messages', message_ids: [m.id] });
    const read = await adaRoom.next('messages_read');
    expect(read).toEqual({ type: 'messages_read', message_ids: [m.id], user_id: grace.user.id });
    expect(adaRoom.received('messages_delivered')).toEqual([
      { type: 'messages_delivered', message_ids: [m.id] },
    ]);
    const order = adaRoom.frames.filter((f) => f.type === 'messages_read' || f.type === 'messages_delivered');
    expect(order.map((f) => f.type)).toEqual(['messages_delivered', 'messages_read']);

    // A second read just after (inside the window) is held back briefly, then announced too.
    const m2 = await say(adaRoom, 'and again?');
    graceRoom.send({ type: 'read_messages', message_ids: [m2.id] });
    expect(await adaRoom.next('messages_read')).toEqual({
      type: 'messages_read',
      message_ids: [m2.id],
      user_id: grace.user.id,
    });
    await say(graceRoom, 'barrier');
    expect(adaRoom.received('messages_read')).toHaveLength(2);
    expect(adaRoom.received('messages_delivered')).toHaveLength(2);
    await closeAll(adaRoom, graceRoom);
  });
});

describe('ReceiptBatcher with a database slower than its window', () => {
  /** Every query answers `ms` later, as a busy database would. */
  const slowBy = (ms: number): KyselyPlugin => ({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await sleep(ms);
      return args.result;
    },
  });

  it('a message completed by receipts of two batches in a row is announced read (writes of one chat never overlap)', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const chatId = await createGroup(t, ada.token, 'Slow');
    await addMember(t, chatId, grace.user.id);
    await addMember(t, chatId, alan.user.id);
    const [m] = await seedMessages(t, ada.user.id, chatId, ['read by both, in two batches']);
    const row = await t.ctx.db
      .selectFrom('chats')
      .select(['id', 'chat_id', 'is_private'])
      .where('chat_id', '=', chatId)
      .executeTakeFirstOrThrow();

    const events = new DomainEvents();
    const reads: DomainEventMap['messages.read'][] = [];
    let writes = 0;
    events.on('messages.read', (p) => void reads.push(p));
    events.on('unread.changed', () => void writes++);
    const errors: unknown[] = [];
    const db = t.ctx.db.withPlugin(slowBy(40));
    const batcher = new ReceiptBatcher({
      db,
      events,
      chats: new ChatMembership(db),
      onError: (err) => errors.push(err),
      windowMs: 20,
    });
    try {
      batcher.read(grace.user.id, row, [m as number]);
      // The first batch is still being written when the window ends and Alan's read goes out on its own.
      await sleep(50);
      batcher.read(alan.user.id, row, [m as number]);
      await eventually(async () => (writes === 2 ? true : undefined), 'both batches written', 5000);
      expect(errors).toEqual([]);
      // Both marks are stored: the message is read for Ada...
      expect((await history(t, ada.token, chatId))[0]).toMatchObject({ id: m, is_read: true });
      // ...so one of the two batches must have told her so.
      expect(reads.flatMap((r) => r.messageIds)).toContain(m);
    } finally {
      batcher.close();
    }
  });
});
