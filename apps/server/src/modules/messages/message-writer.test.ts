import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../platform/errors';
import { deferred } from '../../test-support/deferred';
import { idsOf, increasing, useWriterHarness } from '../../test-support/writer-harness';
import type { ChatRef } from '../chats/chat-membership';
import * as chatsRepo from '../chats/chats.repo';

// The group-commit writer over a real in-memory SQLite database with the real repos and chats and users
// services (test-support/writer-harness.ts): batches, their order, their commit and their retries.

const setUp = useWriterHarness();

describe('MessageWriter: group commit', () => {
  it('writes what reaches it in one turn in one transaction, in order, and publishes it after the commit', async () => {
    const t = await setUp();
    const written = await Promise.all([
      t.send(t.ada, t.pair, 'a1'),
      t.send(t.grace, t.group, 'g1'),
      t.send(null, t.group, 'Ada added Alan'),
      t.send(t.ada, t.pair, 'a2'),
    ]);
    expect(t.log).toEqual([
      'begin',
      'commit',
      'publish a1',
      'publish g1',
      'publish Ada added Alan',
      'publish a2',
    ]);
    expect(increasing(idsOf(written))).toBe(true);
    expect(written.every((w) => w.created)).toBe(true);
    expect(await t.stored(t.pair)).toEqual([
      { id: written[0]?.message.id, body: 'a1' },
      { id: written[3]?.message.id, body: 'a2' },
    ]);

    const [a1, g1, system] = written.map((w) => w.message);
    expect(a1).toMatchObject({
      sender: t.ada,
      sender_username: 'ada',
      sender_name: 'Ada',
      kind: 'user',
      chatroom: t.pair.chat_id,
      is_read: false,
      is_delivered: false,
    });
    expect(system).toMatchObject({ sender: null, kind: 'system', sender_username: '' });
    expect(t.published[1]).toEqual({
      chatId: t.group.chat_id,
      isPrivate: false,
      message: g1,
      clientId: null,
      memberIds: [t.ada, t.grace, t.alan],
      mutedIds: [],
      resend: false,
    });
    expect(t.published[0]?.isPrivate).toBe(true);
  });

  it('writes what arrives while a transaction runs in the next one, together and in order', async () => {
    const t = await setUp();
    const memberIdsIn = t.chats.memberIdsIn.bind(t.chats);
    const held = deferred<void>();
    const inside = deferred<void>();
    vi.spyOn(t.chats, 'memberIdsIn').mockImplementationOnce(async (trx, ids) => {
      inside.resolve();
      await held.promise;
      return memberIdsIn(trx, ids);
    });
    const first = t.send(t.ada, t.pair, 'a1');
    await inside.promise;
    const later = [
      t.send(t.grace, t.pair, 'g1'),
      t.send(t.ada, t.group, 'a2'),
      t.send(t.alan, t.group, 'l1'),
    ];
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(t.log).toEqual(['begin']);
    held.resolve();
    const written = await Promise.all([first, ...later]);
    expect(t.log).toEqual([
      'begin',
      'commit',
      'publish a1',
      'begin',
      'commit',
      'publish g1',
      'publish a2',
      'publish l1',
    ]);
    expect(increasing(idsOf(written))).toBe(true);
  });

  it('keeps a message its place in the queue while its chat is still being looked up', async () => {
    const t = await setUp();
    const lookup = deferred<ChatRef>();
    const slow = t.send(t.ada, lookup.promise, 'looked up slowly');
    const fast = t.send(t.grace, t.pair, 'fast');
    // Answered after the batch has begun (its start was queued first): the batch waits for it.
    setImmediate(() => lookup.resolve(t.pair));
    const written = await Promise.all([slow, fast]);
    expect(increasing(idsOf(written))).toBe(true);
    expect(t.log).toEqual(['begin', 'commit', 'publish looked up slowly', 'publish fast']);
  });

  it('refuses a message whose chat cannot be found, and writes the rest', async () => {
    const t = await setUp();
    const lookup = deferred<ChatRef>();
    const sends = [t.send(t.ada, lookup.promise, 'nowhere'), t.send(t.ada, t.pair, 'a1')];
    // The lookup fails once the batch has begun (its start was queued first). One failing earlier would be
    // an unhandled rejection: the writer only looks at a lookup when its batch starts.
    setImmediate(() => lookup.reject(new NotFoundError('Chat not found.')));
    const results = await Promise.allSettled(sends);
    expect(results[0]).toMatchObject({ status: 'rejected', reason: expect.any(NotFoundError) });
    expect(results[1]).toMatchObject({ status: 'fulfilled' });
    expect(t.log).toEqual(['begin', 'commit', 'publish a1']);
  });

  it('refuses a message whose chat lookup failed before its batch began, without an unhandled rejection', async () => {
    const t = await setUp();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const failed = Promise.reject(new NotFoundError('Chat not found.'));
      const settled = Promise.allSettled([t.send(t.ada, failed, 'nowhere'), t.send(t.ada, t.pair, 'a1')]);
      // Let the lookup's rejection be seen as unhandled if the writer left it so until the batch starts.
      await new Promise((resolve) => setTimeout(resolve, 20));
      const results = await settled;
      expect(results[0]).toMatchObject({ status: 'rejected', reason: expect.any(NotFoundError) });
      expect(results[1]).toMatchObject({ status: 'fulfilled' });
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('writes at most 500 messages in one transaction', async () => {
    const t = await setUp();
    const bodies = Array.from({ length: 501 }, (_, i) => `m${i}`);
    const written = await Promise.all(bodies.map((b) => t.send(t.ada, t.pair, b)));
    expect(t.log.filter((l) => l === 'begin')).toHaveLength(2);
    expect(t.log.indexOf('begin', 1)).toBe(2 + 500);
    expect(increasing(idsOf(written))).toBe(true);
  });

  it("sets each chat's last activity to the time of its own newest message", async () => {
    const t = await setUp();
    // One batch, each message stamped a second after the one before.
    vi.useFakeTimers({ toFake: ['Date'] });
    const at = (s: number) => vi.setSystemTime(new Date(Date.UTC(2026, 0, 1, 12, 0, s)));
    const sends = [];
    for (const [s, chat, body] of [
      [1, t.pair, 'a1'],
      [2, t.group, 'g1'],
      [3, t.pair, 'a2'],
      [4, t.group, 'g2'],
    ] as const) {
      at(s);
      sends.push(t.send(t.ada, chat, body));
    }
    vi.useRealTimers();
    await Promise.all(sends);
    expect(t.log.filter((l) => l === 'begin')).toHaveLength(1);
    const lastActivity = async (chat: ChatRef) =>
      (await chatsRepo.findChatByPublicId(t.db, chat.chat_id))?.last_activity_at;
    expect(await lastActivity(t.pair)).toBe('2026-01-01T12:00:03.000Z');
    expect(await lastActivity(t.group)).toBe('2026-01-01T12:00:04.000Z');
  });
});

describe('MessageWriter: refusals and failures', () => {
  it("refuses a non-member's message as not found and writes the rest of its batch in the same transaction", async () => {
    const t = await setUp();
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'a1'),
      t.send(t.alan, t.pair, 'intruder'),
      t.send(t.grace, t.pair, 'g1'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toMatchObject({ reason: expect.any(NotFoundError) });
    expect(t.log).toEqual(['begin', 'commit', 'publish a1', 'publish g1']);
    expect((await t.stored(t.pair)).map((m) => m.body)).toEqual(['a1', 'g1']);
  });

  it('retries a failed batch message by message, so only the bad one fails', async () => {
    const t = await setUp();
    await sql`CREATE TRIGGER poison BEFORE INSERT ON messages WHEN NEW.body = 'poison'
      BEGIN SELECT RAISE(ABORT, 'poisoned message'); END`.execute(t.db);
    const results = await Promise.allSettled([
      t.send(t.ada, t.pair, 'a1'),
      t.send(t.grace, t.pair, 'poison'),
      t.send(t.ada, t.group, 'a2'),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[1] as PromiseRejectedResult).reason)).toContain('poisoned message');
    expect(t.log).toEqual([
      'begin',
      'rollback',
      'begin',
      'commit',
      'publish a1',
      'begin',
      'rollback',
      'begin',
      'commit',
      'publish a2',
    ]);
    // Stored once each, nothing of the rolled-back batch left behind.
    expect((await t.stored(t.pair)).map((m) => m.body)).toEqual(['a1']);
    expect((await t.stored(t.group)).map((m) => m.body)).toEqual(['a2']);

    // A message that fails alone is not tried twice, and the writer goes on.
    t.log.length = 0;
    await expect(t.send(t.ada, t.pair, 'poison')).rejects.toThrow('poisoned message');
    await t.send(t.ada, t.pair, 'a3');
    expect(t.log).toEqual(['begin', 'rollback', 'begin', 'commit', 'publish a3']);
  });
});
