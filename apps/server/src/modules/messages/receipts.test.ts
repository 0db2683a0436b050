import { afterEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../test-support/deferred';
import { messagesWorld } from '../../test-support/messages-world';
import { ChatMembership, type ChatRef } from '../chats/chat-membership';
import { ReceiptBatcher } from './receipts';

// Read and delivery receipts, coalesced per chat, over a real in-memory SQLite database (the messages are
// looked up there and the marks moved there by the real ChatsService) under fake timers: the first receipts
// after a quiet spell are written at once, what comes in the 100 ms after a write is written together.

let close: (() => Promise<void>) | null = null;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await close?.();
  close = null;
});

/**
 * Ada, Grace and Alan in a group (Alan's read receipts off unless `alanReports`), Bob outside it, and a pair
 * chat of Ada and Grace. In the group: Ada's m1, m2, Grace's g1, a system line, Ada's m3; then x1 in the pair.
 */
async function setUp(o: { alanReports?: boolean } = {}) {
  const w = await messagesWorld();
  close = () => w.db.destroy();
  const ada = await w.person('Ada');
  const grace = await w.person('Grace');
  const alan = await w.person('Alan', { readReceipt: o.alanReports ?? true });
  const bob = await w.person('Bob');
  const group = await w.chat([ada, grace, alan], { group: true });
  const pair = await w.chat([ada, grace]);
  const m1 = await w.post(group, ada, 'm1');
  const m2 = await w.post(group, ada, 'm2');
  const g1 = await w.post(group, grace, 'g1');
  const system = await w.post(group, null, 'Ada added Alan');
  const m3 = await w.post(group, ada, 'm3');
  const x1 = await w.post(pair, grace, 'x1');

  vi.useFakeTimers();
  const start = Date.now();
  const log: unknown[][] = [];
  const at = () => Date.now() - start;
  const record = (...entry: unknown[]) => {
    log.push([at(), ...entry]);
  };
  w.events.on('messages.delivered', (e) => record('delivered', e.chatId, e.messageIds));
  w.events.on('messages.read', (e) => record('read', e.chatId, e.userId, e.messageIds));
  w.events.on('unread.changed', (e) => record('unread', e.userIds));
  const advanceMarks = vi.spyOn(w.chats, 'advanceMarks');
  const onError = vi.fn();
  const receipts = new ReceiptBatcher({ db: w.db, events: w.events, chats: w.chats, onError });
  /** Each member's [read, delivered] marks. */
  const marks = async (chat: ChatRef) =>
    Object.fromEntries(
      (await w.chats.pageMembers(chat.id)).map((m) => [m.user_id, [m.last_read_id, m.last_delivered_id]]),
    );
  const settle = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
  return {
    ...w,
    ...{ ada, grace, alan, bob, group, pair, m1, m2, g1, system, m3, x1 },
    ...{ receipts, advanceMarks, onError, log, marks, settle },
  };
}

describe('ReceiptBatcher: timing', () => {
  it('writes the first receipts after a quiet spell at once, in one write', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m1]);
    t.receipts.read(t.grace, t.group, [t.m2]);
    t.receipts.delivered(t.alan, t.group, [t.m3]);
    expect(t.advanceMarks).not.toHaveBeenCalled();
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledTimes(1);
    expect(t.advanceMarks).toHaveBeenCalledWith(
      t.group.id,
      new Map([[t.grace, t.m2]]),
      new Map([[t.alan, t.m3]]),
    );
    expect(t.log).toEqual([
      [0, 'delivered', t.group.chat_id, [t.m1, t.m2, t.m3]],
      [0, 'unread', [t.grace]],
    ]);
    expect(await t.marks(t.group)).toEqual({
      [t.ada]: [0, 0],
      [t.grace]: [t.m2, t.m2],
      [t.alan]: [0, t.m3],
    });
  });

  it('gathers what arrives in the 100 ms after a write and writes it together', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m1, t.m2]);
    await t.settle();
    await t.settle(30);
    t.receipts.read(t.alan, t.group, [t.m1, t.m2]);
    await t.settle(30);
    t.receipts.read(t.grace, t.group, [t.m3]);
    await t.settle(39);
    expect(t.advanceMarks).toHaveBeenCalledTimes(1);
    await t.settle(1);
    expect(t.advanceMarks).toHaveBeenCalledTimes(2);
    expect(t.advanceMarks).toHaveBeenLastCalledWith(
      t.group.id,
      new Map([
        [t.alan, t.m2],
        [t.grace, t.m3],
      ]),
      new Map(),
    );
    // m1 and m2 are now read by everyone who reports reads; m3 by Grace only.
    expect(t.log.slice(2)).toEqual([
      [100, 'delivered', t.group.chat_id, [t.m1, t.m2, t.m3]],
      [100, 'read', t.group.chat_id, t.alan, [t.m1, t.m2]],
      [100, 'unread', [t.alan, t.grace]],
    ]);
  });

  it('is prompt again after a window without receipts, and keeps each chat to its own window', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle();
    // The group is within its window; the pair chat is not.
    t.receipts.read(t.ada, t.pair, [t.x1]);
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledTimes(2);
    await t.settle(250);
    t.receipts.read(t.grace, t.group, [t.m2]);
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledTimes(3);
    expect(t.log.filter((e) => e[1] === 'unread')).toEqual([
      [0, 'unread', [t.grace]],
      [0, 'unread', [t.ada]],
      [250, 'unread', [t.grace]],
    ]);
  });

  it("never overlaps a chat's writes: after a slow write, the window starts when it ends", async () => {
    const t = await setUp();
    const held = deferred<void>();
    t.advanceMarks.mockImplementationOnce(async (...args) => {
      await held.promise;
      return ChatMembership.prototype.advanceMarks.apply(t.chats, args);
    });
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle(150);
    t.receipts.read(t.alan, t.group, [t.m1]);
    await t.settle(50);
    expect(t.advanceMarks).toHaveBeenCalledTimes(1);
    held.resolve();
    await t.settle(99);
    expect(t.advanceMarks).toHaveBeenCalledTimes(1);
    await t.settle(1);
    // Alan's read is written on the marks Grace's left: m1 is read by all who report reads.
    expect(t.log).toEqual([
      [200, 'delivered', t.group.chat_id, [t.m1]],
      [200, 'unread', [t.grace]],
      [300, 'delivered', t.group.chat_id, [t.m1]],
      [300, 'read', t.group.chat_id, t.alan, [t.m1]],
      [300, 'unread', [t.alan]],
    ]);
  });

  it('resolves settled once everything reported has been written', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle();
    t.receipts.read(t.grace, t.group, [t.m2]);
    let settled = false;
    void t.receipts.settled().then(() => {
      settled = true;
    });
    await t.settle(50);
    expect(settled).toBe(false);
    await t.settle(60);
    expect(settled).toBe(true);
    expect((await t.marks(t.group))[t.grace]).toEqual([t.m2, t.m2]);
  });
});

describe('ReceiptBatcher: what counts', () => {
  it("counts only members' receipts", async () => {
    const t = await setUp();
    t.receipts.read(t.bob, t.group, [t.m1]);
    t.receipts.delivered(t.bob, t.group, [t.m2]);
    await t.settle();
    expect(t.advanceMarks).not.toHaveBeenCalled();
    expect(t.log).toEqual([]);
  });

  it("counts only this chat's messages, and no system lines", async () => {
    const t = await setUp();
    // x1 is the pair chat's, and newer than everything in the group: it must not move a group mark.
    t.receipts.read(t.grace, t.group, [t.m1, t.x1, t.system]);
    t.receipts.delivered(t.alan, t.group, [t.x1, t.system]);
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledWith(t.group.id, new Map([[t.grace, t.m1]]), new Map());
    expect(t.log).toEqual([
      [0, 'delivered', t.group.chat_id, [t.m1]],
      [0, 'unread', [t.grace]],
    ]);
  });

  it("counts only others' messages: reading one's own does not pass others' unread ones", async () => {
    const t = await setUp();
    t.receipts.read(t.ada, t.group, [t.m3]);
    t.receipts.delivered(t.ada, t.group, [t.m1]);
    await t.settle();
    expect(t.advanceMarks).not.toHaveBeenCalled();
    await t.settle(200);
    t.receipts.read(t.ada, t.group, [t.g1, t.m3]);
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledWith(t.group.id, new Map([[t.ada, t.g1]]), new Map());
    expect((await t.marks(t.group))[t.ada]).toEqual([t.g1, t.g1]);
  });

  it('counts deliveries only past the delivered mark, and never moves a mark back', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m2]);
    await t.settle(200);
    t.receipts.delivered(t.grace, t.group, [t.m1, t.m2]);
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle();
    expect(t.advanceMarks).toHaveBeenCalledTimes(2);
    expect(t.advanceMarks).toHaveBeenLastCalledWith(t.group.id, new Map([[t.grace, t.m1]]), new Map());
    expect((await t.marks(t.group))[t.grace]).toEqual([t.m2, t.m2]);
  });

  it('never names a reader whose read receipts are off, yet moves their marks and counts', async () => {
    const t = await setUp({ alanReports: false });
    // Grace is the only one who reports reads: her read alone makes m1 read.
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle(200);
    expect(t.log).toEqual([
      [0, 'delivered', t.group.chat_id, [t.m1]],
      [0, 'read', t.group.chat_id, t.grace, [t.m1]],
      [0, 'unread', [t.grace]],
    ]);
    t.receipts.read(t.alan, t.group, [t.m1]);
    await t.settle();
    expect(t.log.slice(3)).toEqual([
      [200, 'delivered', t.group.chat_id, [t.m1]],
      [200, 'unread', [t.alan]],
    ]);
    expect((await t.marks(t.group))[t.alan]).toEqual([t.m1, t.m1]);
  });
});

describe('ReceiptBatcher: failures and closing', () => {
  it('reports a failed write and goes on with the next receipts after the window', async () => {
    const t = await setUp();
    t.advanceMarks.mockRejectedValueOnce(new Error('database down'));
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle();
    expect(t.onError).toHaveBeenCalledWith(new Error('database down'));
    expect(t.log).toEqual([]);
    t.receipts.read(t.grace, t.group, [t.m2]);
    await t.settle(100);
    expect((await t.marks(t.group))[t.grace]).toEqual([t.m2, t.m2]);
  });

  it('writes nothing more once closed, and drops what was gathering', async () => {
    const t = await setUp();
    t.receipts.read(t.grace, t.group, [t.m1]);
    await t.settle();
    t.receipts.read(t.grace, t.group, [t.m2]);
    t.receipts.close();
    expect(vi.getTimerCount()).toBe(0);
    t.receipts.read(t.ada, t.pair, [t.x1]);
    await t.settle(500);
    await t.receipts.settled();
    expect(t.advanceMarks).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
