import type { Message } from '@parley/protocol';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { ChatRef } from '../../src/modules/chats/chat-membership';
import { HttpError } from '../../src/platform/errors';
import type { DomainEventMap } from '../../src/platform/events';
import { uploadFiles } from '../attachments/attachment-helpers';
import { deleteGroup, removeMemberCall } from '../groups/group-helpers';
import { type SignedUp, type TestApp, useTestApp } from '../helpers/test-app';
import { joinRoom, type WsClient } from '../helpers/ws-client';
import { addMember, createGroup, myChats, nextMillisecond, people, startChat } from './chat-helpers';

// The group-commit writer (message-writer.ts) driven through the real MessagesService: what reaches it in one turn
// of the event loop is written as one batch. The calls of a batch are issued synchronously, after each chat has
// been written to once: that caches the chat's ChatRef, so every send reaches the writer after the same single
// await (a chat not yet cached reads its row first, which lets a later call overtake it). On PostgreSQL the rows
// a transaction wrote share its xmin, which proves that a batch really was one.
const app = useTestApp();

type Published = DomainEventMap['message.published'];

/** Every message.published of a newly stored message from now on, in the order emitted. */
function recordCreated(t: TestApp): Published[] {
  const seen: Published[] = [];
  t.ctx.events.on('message.published', (e) => {
    if (!e.resend) seen.push(e);
  });
  return seen;
}

const send = (
  t: TestApp,
  who: SignedUp,
  chatId: string,
  body: string,
  extra: { client_id?: string; file_ids?: number[] } = {},
) => t.ctx.messages.send(who.user.id, chatId, { body, ...extra });

/** Sends once, so the chat's ChatRef is cached before a test builds a batch. */
const warm = async (t: TestApp, who: SignedUp, chatId: string): Promise<Message> =>
  (await send(t, who, chatId, `warm-up ${chatId}`)).message;

/**
 * Lets the calls issued so far reach the writer's queue. Microtasks only: the batch starts from setImmediate,
 * so it has not begun. (announce queues at once; send first awaits the chat's cached ChatRef.)
 */
async function reachWriter(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Blocks until the wall clock shows a later millisecond, without yielding to the event loop. */
function spinToNextMillisecond(): void {
  const start = Date.now();
  while (Date.now() <= start) {
    // Busy on purpose: yielding would let the writer start its batch.
  }
}

/** What announce takes: the chat's row id, public id and kind. */
const chatRefOf = (t: TestApp, chatId: string): Promise<ChatRef> =>
  t.ctx.db
    .selectFrom('chats')
    .select(['id', 'chat_id', 'is_private'])
    .where('chat_id', '=', chatId)
    .executeTakeFirstOrThrow();

/** Every stored message of a chat, oldest first, straight from the table. */
const storedIn = async (t: TestApp, chatId: string) => {
  const chat = await chatRefOf(t, chatId);
  return t.ctx.db
    .selectFrom('messages')
    .select(['id', 'sender_id', 'kind', 'client_id', 'body', 'created_at'])
    .where('chat_id', '=', chat.id)
    .orderBy('id')
    .execute();
};

const lastActivityOf = async (t: TestApp, chatId: string): Promise<string> =>
  (
    await t.ctx.db
      .selectFrom('chats')
      .select('last_activity_at')
      .where('chat_id', '=', chatId)
      .executeTakeFirstOrThrow()
  ).last_activity_at;

/** On PostgreSQL, asserts one transaction wrote all these messages (one xmin). SQLite cannot tell. */
async function expectOneTransaction(t: TestApp, ids: number[]): Promise<void> {
  if (t.ctx.dialect !== 'postgres') return;
  const { rows } = await sql<{ xmin: string }>`
    select distinct xmin::text as xmin from messages where id in (${sql.join(ids)})`.execute(t.ctx.db);
  expect(rows, `transactions that wrote ${ids.join(', ')}`).toHaveLength(1);
}

const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);

function fulfilledValue<T>(r: PromiseSettledResult<T>): T {
  if (r.status === 'rejected') throw r.reason;
  return r.value;
}

function refusalOf(r: PromiseSettledResult<unknown>): unknown {
  if (r.status === 'fulfilled') throw new Error(`expected a refusal, got ${JSON.stringify(r.value)}`);
  return r.reason;
}

/** A settled result as a failure message shows it: the refusal's error, when it was refused. */
const shown = (r: PromiseSettledResult<unknown> | undefined) =>
  r?.status === 'rejected' ? `refused: ${String(r.reason)}` : 'fulfilled';

function expectHttpError(reason: unknown, status: number, message: string): void {
  expect(reason).toBeInstanceOf(HttpError);
  expect((reason as HttpError).status).toBe(status);
  expect((reason as HttpError).message).toBe(message);
}

const FILES_REFUSED = 'Some attached files are unknown or already sent.';

/** Uploads small text files (asserting the 200); their ids. */
async function uploadTexts(t: TestApp, token: string, chatId: string, names: string[]): Promise<number[]> {
  const res = await uploadFiles(
    t,
    token,
    chatId,
    names.map((n) => ({ bytes: Buffer.from(`contents of ${n}`), filename: `${n}.txt` })),
  );
  expect(res.status, res.text).toBe(200);
  return res.body.files.map((f: { id: number }) => f.id);
}

const closeAll = (...clients: WsClient[]) => Promise.all(clients.map((c) => c.close()));

describe('message writer: one batch', () => {
  it('stores sends to several chats issued in one tick once each, with ids in issue order, announced per chat in id order', async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const group = await createGroup(t, ada.token, 'Bletchley');
    await addMember(t, group, grace.user.id);
    await addMember(t, group, alan.user.id);
    const pair = await startChat(t, ada.token, grace.user.username);
    const hut = await createGroup(t, grace.token, 'Hut 8');
    await addMember(t, hut, alan.user.id);
    const chats = [group, pair, hut];
    const sendersOf: Record<string, SignedUp[]> = {
      [group]: [ada, grace, alan],
      [pair]: [ada, grace],
      [hut]: [grace, alan],
    };
    const rooms: Record<string, WsClient> = {
      [group]: await joinRoom(t, alan.token, group),
      [pair]: await joinRoom(t, ada.token, pair),
      [hut]: await joinRoom(t, grace.token, hut),
    };
    for (const c of chats) await warm(t, sendersOf[c]![0]!, c);
    const before = new Map(
      await Promise.all(chats.map(async (c) => [c, await lastActivityOf(t, c)] as const)),
    );
    await nextMillisecond();
    const created = recordCreated(t);

    const plan = Array.from({ length: 30 }, (_, i) => {
      const chatId = chats[i % chats.length]!;
      const senders = sendersOf[chatId]!;
      return { chatId, from: senders[i % senders.length]!, body: `burst ${i}`, client_id: `burst-${i}` };
    });
    const results = await Promise.all(
      plan.map((p) => send(t, p.from, p.chatId, p.body, { client_id: p.client_id })),
    );

    expect(results.map((r) => r.created)).toEqual(plan.map(() => true));
    expect(results.map((r) => [r.message.chatroom, r.message.sender, r.message.body])).toEqual(
      plan.map((p) => [p.chatId, p.from.user.id, p.body]),
    );
    const ids = results.map((r) => r.message.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(ascending(ids));
    await expectOneTransaction(t, ids);

    for (const chatId of chats) {
      const mine = plan.flatMap((p, i) => (p.chatId === chatId ? [{ ...p, id: ids[i]! }] : []));
      // Stored once each, nothing else written in the chat since its warm-up message.
      const stored = (await storedIn(t, chatId)).slice(1);
      expect(stored.map((m) => [m.id, m.sender_id, m.body, m.client_id])).toEqual(
        mine.map((p) => [p.id, p.from.user.id, p.body, p.client_id]),
      );
      // The room hears them in id order, each with its client_id.
      const frames = await rooms[chatId]!.take('chat_message', mine.length, (f) =>
        f.message?.body?.startsWith('burst '),
      );
      expect(frames.map((f) => [f.message.id, f.client_id])).toEqual(mine.map((p) => [p.id, p.client_id]));
      // The chat's last activity moved to (at least) its newest message.
      const last = results[ids.indexOf(mine[mine.length - 1]!.id)]!.message;
      const activity = await lastActivityOf(t, chatId);
      expect(activity > before.get(chatId)!).toBe(true);
      expect(activity >= last.timestamp).toBe(true);
    }
    // Announced once each, in id order (so in order within every chat).
    expect(created.map((e) => [e.message.id, e.chatId, e.clientId])).toEqual(
      results.map((r, i) => [r.message.id, plan[i]!.chatId, plan[i]!.client_id]),
    );

    // The chat list shows each chat's newest message.
    const list = await myChats(t, ada.token);
    for (const chatId of [group, pair]) {
      const newest = results.filter((r) => r.message.chatroom === chatId).at(-1)!.message;
      expect(list.find((c) => c.chat_id === chatId)).toMatchObject({
        last_message: newest.body,
        last_message_time: newest.timestamp,
      });
    }
    await closeAll(...Object.values(rooms));
  });

  it('stores a resend (same sender, chat and client_id) once, in the same batch and a later one; created for the first only', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    await warm(t, ada, chatId);
    const created = recordCreated(t);
    const resent: Published[] = [];
    t.ctx.events.on('message.published', (e) => {
      if (e.resend) resent.push(e);
    });

    // The resend last: on SQLite the batch's INSERT is cut into runs of 2 and 1 rows (message-inserts.repo.ts),
    // so it meets the row it repeats in an earlier statement of the same transaction.
    const [first, graces, again] = await Promise.all([
      send(t, ada, chatId, 'Hello', { client_id: 'dup-1' }),
      // The same client_id from someone else is another message.
      send(t, grace, chatId, 'Hi', { client_id: 'dup-1' }),
      send(t, ada, chatId, 'Hello', { client_id: 'dup-1' }),
    ]);
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.message).toMatchObject({
      id: first.message.id,
      body: 'Hello',
      sender: ada.user.id,
      client_id: 'dup-1',
    });
    expect(graces.created).toBe(true);
    expect(graces.message.id).toBeGreaterThan(first.message.id);
    await expectOneTransaction(t, [first.message.id, graces.message.id]);

    // Later batches: answered with what is stored, whatever the resend's body says.
    const later = await send(t, ada, chatId, 'Hello', { client_id: 'dup-1' });
    expect(later).toMatchObject({ created: false, message: { id: first.message.id, body: 'Hello' } });
    const edited = await send(t, ada, chatId, 'Hello (edited)', { client_id: 'dup-1' });
    expect(edited).toMatchObject({ created: false, message: { id: first.message.id, body: 'Hello' } });

    const stored = (await storedIn(t, chatId)).slice(1);
    expect(stored.map((m) => [m.id, m.sender_id, m.client_id, m.body])).toEqual([
      [first.message.id, ada.user.id, 'dup-1', 'Hello'],
      [graces.message.id, grace.user.id, 'dup-1', 'Hi'],
    ]);
    // Only the stored messages were announced as new; each resend was published again, marked as one, with
    // the stored text (the room hears it again; notifications skip it).
    expect(created.map((e) => e.message.id)).toEqual([first.message.id, graces.message.id]);
    expect(resent.map((e) => [e.message.id, e.message.body, e.clientId, e.chatId])).toEqual([
      [first.message.id, 'Hello', 'dup-1', chatId],
      [first.message.id, 'Hello', 'dup-1', chatId],
      [first.message.id, 'Hello', 'dup-1', chatId],
    ]);
  });

  it("refuses a non-member's message with 404 and stores the rest of its batch", async () => {
    const t = app();
    const [ada, grace, alan] = await people(t, 'Ada', 'Grace', 'Alan');
    const group = await createGroup(t, ada.token, 'Bletchley');
    await addMember(t, group, grace.user.id);
    await addMember(t, group, alan.user.id);
    const doomed = await createGroup(t, ada.token, 'Doomed');
    await warm(t, grace, group);
    await warm(t, ada, doomed);
    // A moment before the batch: Grace is removed, and the other group is deleted (its ChatRef stays cached).
    const removed = await removeMemberCall(t, ada.token, group, grace.user.id);
    expect(removed.status, removed.text).toBe(200);
    expect((await deleteGroup(t, ada.token, doomed)).status).toBe(204);
    const storedBefore = await storedIn(t, group);
    const created = recordCreated(t);

    const results = await Promise.allSettled([
      send(t, ada, group, 'From Ada'),
      send(t, grace, group, 'From Grace, just removed'),
      send(t, alan, group, 'From Alan'),
      send(t, ada, doomed, 'Into a deleted group'),
    ]);
    expectHttpError(refusalOf(results[1]!), 404, 'Chat not found.');
    expectHttpError(refusalOf(results[3]!), 404, 'Chat not found.');
    const fromAda = fulfilledValue(results[0]!);
    const fromAlan = fulfilledValue(results[2]!);
    expect([fromAda.created, fromAlan.created]).toEqual([true, true]);
    expect(fromAlan.message.id).toBeGreaterThan(fromAda.message.id);
    await expectOneTransaction(t, [fromAda.message.id, fromAlan.message.id]);

    const stored = (await storedIn(t, group)).slice(storedBefore.length);
    expect(stored.map((m) => [m.id, m.sender_id, m.body])).toEqual([
      [fromAda.message.id, ada.user.id, 'From Ada'],
      [fromAlan.message.id, alan.user.id, 'From Alan'],
    ]);
    expect(created.map((e) => e.message.id)).toEqual([fromAda.message.id, fromAlan.message.id]);
    for (const e of created) expect(ascending(e.memberIds)).toEqual(ascending([ada.user.id, alan.user.id]));
  });

  it('refuses a message with unknown or already sent files with 400, stores the rest; a file claimed twice in a batch goes with the first', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await createGroup(t, ada.token, 'Files');
    await addMember(t, chatId, grace.user.id);
    const [sentFile, claimed, spare] = (await uploadTexts(t, ada.token, chatId, ['one', 'two', 'three'])) as [
      number,
      number,
      number,
    ];
    const [gracesFile] = (await uploadTexts(t, grace.token, chatId, ['grace'])) as [number];
    const earlier = await send(t, ada, chatId, 'Already sent', { file_ids: [sentFile] });
    expect(earlier.message.files.map((f) => f.id)).toEqual([sentFile]);
    await warm(t, grace, chatId);
    const created = recordCreated(t);

    const results = await Promise.allSettled([
      send(t, ada, chatId, 'Unknown file', { file_ids: [gracesFile + 1000] }),
      send(t, ada, chatId, 'A file sent before', { file_ids: [sentFile] }),
      send(t, ada, chatId, "Grace's file", { file_ids: [gracesFile] }),
      send(t, ada, chatId, 'First claim', { file_ids: [claimed] }),
      send(t, grace, chatId, 'No files'),
      send(t, ada, chatId, 'Second claim', { file_ids: [claimed, spare] }),
    ]);
    for (const i of [0, 1, 2, 5]) expectHttpError(refusalOf(results[i]!), 400, FILES_REFUSED);
    const firstClaim = fulfilledValue(results[3]!);
    const noFiles = fulfilledValue(results[4]!);
    expect(firstClaim).toMatchObject({ created: true, message: { body: 'First claim' } });
    expect(firstClaim.message.files.map((f) => f.id)).toEqual([claimed]);
    expect(noFiles).toMatchObject({ created: true, message: { body: 'No files', files: [] } });
    expect(noFiles.message.id).toBeGreaterThan(firstClaim.message.id);
    await expectOneTransaction(t, [firstClaim.message.id, noFiles.message.id]);
    expect(created.map((e) => e.message.id)).toEqual([firstClaim.message.id, noFiles.message.id]);

    const files = await t.ctx.db
      .selectFrom('files')
      .select(['id', 'message_id'])
      .where('id', 'in', [sentFile, claimed, spare, gracesFile])
      .orderBy('id')
      .execute();
    expect(files).toEqual(
      [
        { id: sentFile, message_id: earlier.message.id },
        { id: claimed, message_id: firstClaim.message.id },
        { id: spare, message_id: null },
        { id: gracesFile, message_id: null },
      ].sort((a, b) => a.id - b.id),
    );
    // The refused message took nothing: its other file can still be sent.
    const later = await send(t, ada, chatId, 'The spare', { file_ids: [spare] });
    expect(later.message.files.map((f) => f.id)).toEqual([spare]);
  });

  it('keeps system lines and user messages of one batch in the order they reached the writer', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await createGroup(t, ada.token, 'Mixed');
    await addMember(t, chatId, grace.user.id);
    await warm(t, ada, chatId);
    const ref = await chatRefOf(t, chatId);
    const room = await joinRoom(t, grace.token, chatId);
    const storedBefore = await storedIn(t, chatId);
    const created = recordCreated(t);

    const order = [
      { kind: 'user', body: 'u1', call: () => send(t, ada, chatId, 'u1') },
      { kind: 'system', body: 's1', call: () => t.ctx.messages.announce(ref, 's1') },
      { kind: 'user', body: 'u2', call: () => send(t, grace, chatId, 'u2') },
      { kind: 'system', body: 's2', call: () => t.ctx.messages.announce(ref, 's2') },
      { kind: 'user', body: 'u3', call: () => send(t, ada, chatId, 'u3') },
    ];
    const calls: Promise<unknown>[] = [];
    for (const o of order) {
      calls.push(o.call());
      await reachWriter();
    }
    await Promise.all(calls);

    const stored = (await storedIn(t, chatId)).slice(storedBefore.length);
    expect(stored.map((m) => [m.kind, m.body])).toEqual(order.map((o) => [o.kind, o.body]));
    expect(stored.map((m) => m.sender_id)).toEqual([ada.user.id, null, grace.user.id, null, ada.user.id]);
    const ids = stored.map((m) => m.id);
    await expectOneTransaction(t, ids);
    expect(created.map((e) => e.message.id)).toEqual(ids);
    const frames = await room.take('chat_message', order.length, (f) => /^[us]\d$/.test(f.message?.body));
    expect(frames.map((f) => [f.message.id, f.message.kind, f.message.body])).toEqual(
      stored.map((m) => [m.id, m.kind, m.body]),
    );
    await room.close();
  });

  it('a write that fails in the database fails only its own message; the rest of its batch is stored', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const group = await createGroup(t, ada.token, 'Stays');
    await addMember(t, group, grace.user.id);
    await warm(t, ada, group);
    // A system line for a group deleted meanwhile: no membership check stops it, so its insert breaks the
    // messages → chats foreign key and the batch's transaction fails; the writer then writes each alone.
    const doomed = await createGroup(t, ada.token, 'Doomed');
    const doomedRef = await chatRefOf(t, doomed);
    expect((await deleteGroup(t, ada.token, doomed)).status).toBe(204);
    const storedBefore = await storedIn(t, group);
    const created = recordCreated(t);

    const [first, line, second] = await Promise.allSettled([
      send(t, ada, group, 'Kept despite its batch'),
      t.ctx.messages.announce(doomedRef, 'A line for a deleted group'),
      send(t, grace, group, 'Kept too'),
    ]);
    const reason = refusalOf(line);
    expect(reason).toBeInstanceOf(Error);
    expect(reason).not.toBeInstanceOf(HttpError);
    expect(first.status).toBe('fulfilled');
    expect(second.status).toBe('fulfilled');
    const kept = (await storedIn(t, group)).slice(storedBefore.length);
    expect(kept.map((m) => m.body)).toEqual(['Kept despite its batch', 'Kept too']);
    expect(created.map((e) => e.message.id)).toEqual(kept.map((m) => m.id));
    const storedAfterFailure = await storedIn(t, group);
    created.length = 0;

    // Later batches are written as if nothing happened.
    const [after, still] = await Promise.all([
      send(t, ada, group, 'After the failure'),
      send(t, grace, group, 'Still working'),
    ]);
    await t.ctx.messages.announce(await chatRefOf(t, group), 'A line after');
    expect([after.created, still.created]).toEqual([true, true]);
    const stored = (await storedIn(t, group)).slice(storedAfterFailure.length);
    expect(stored.map((m) => m.body)).toEqual(['After the failure', 'Still working', 'A line after']);
    expect(created.map((e) => e.message.id)).toEqual(stored.map((m) => m.id));
  });
});

// Regressions found in the writer's first version, each fixed: resends with files were refused because the
// file check ran before the insert could tell a resend; a cold chat lookup let sends overtake each other on
// PostgreSQL; every chat of a batch got the batch's last time as its last activity.
describe('message writer: regressions', () => {
  it('a resend of a message with files, in a later batch, is answered with the stored message', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [file] = (await uploadTexts(t, ada.token, chatId, ['report'])) as [number];
    const first = await send(t, ada, chatId, '', { client_id: 'with-file', file_ids: [file] });
    expect(first.created).toBe(true);

    // The client missed the echo and resends the same frame (same client_id, same file_ids).
    const [again] = await Promise.allSettled([
      send(t, ada, chatId, '', { client_id: 'with-file', file_ids: [file] }),
    ]);
    expect(again, shown(again)).toMatchObject({
      status: 'fulfilled',
      value: { created: false, message: { id: first.message.id, files: [{ id: file }] } },
    });
  });

  it('a resend of a message with files, in the same batch, is answered with the stored message', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const chatId = await startChat(t, ada.token, grace.user.username);
    const [file] = (await uploadTexts(t, ada.token, chatId, ['report'])) as [number];
    await warm(t, ada, chatId);

    const [first, again] = await Promise.allSettled([
      send(t, ada, chatId, '', { client_id: 'with-file', file_ids: [file] }),
      send(t, ada, chatId, '', { client_id: 'with-file', file_ids: [file] }),
    ]);
    const stored = fulfilledValue(first!);
    expect(stored.created).toBe(true);
    expect(again, shown(again)).toMatchObject({
      status: 'fulfilled',
      value: { created: false, message: { id: stored.message.id, files: [{ id: file }] } },
    });
  });

  it('sends issued in one tick to chats not looked up yet are stored in issue order', async () => {
    const t = app();
    const [ada] = await people(t, 'Ada');
    // Never written to: ChatMembership has not cached their ChatRef (nor after its cache is cleared at 10,000).
    const chats = [await createGroup(t, ada.token, 'Cold 1'), await createGroup(t, ada.token, 'Cold 2')];
    const plan = Array.from({ length: 24 }, (_, i) => ({ chatId: chats[i % 2]!, body: `cold ${i}` }));
    // As a client's resendPending does after a reconnect: many frames to one chat, one after another.
    await Promise.all(plan.map((p) => send(t, ada, p.chatId, p.body)));

    // Each send looks its chat up before it queues; on PostgreSQL those look-ups run on several pooled
    // connections and finish in any order, so the writer receives (and numbers) the messages shuffled.
    for (const chatId of chats) {
      expect((await storedIn(t, chatId)).map((m) => m.body)).toEqual(
        plan.filter((p) => p.chatId === chatId).map((p) => p.body),
      );
    }
  });

  it('each chat of a batch gets the time of its own newest message as last activity', async () => {
    const t = app();
    const [ada, grace] = await people(t, 'Ada', 'Grace');
    const older = await createGroup(t, ada.token, 'Older');
    const newer = await createGroup(t, grace.token, 'Newer');
    await addMember(t, newer, ada.user.id);
    await warm(t, ada, older);
    await warm(t, grace, newer);
    await nextMillisecond();

    // One batch: Grace writes in 'Newer', then, a millisecond later, Ada in 'Older'.
    const inNewer = send(t, grace, newer, 'Earlier message');
    await reachWriter();
    spinToNextMillisecond();
    const inOlder = send(t, ada, older, 'Later message');
    const [early, late] = await Promise.all([inNewer, inOlder]);
    expect(late.message.timestamp > early.message.timestamp).toBe(true);
    await expectOneTransaction(t, [early.message.id, late.message.id]);

    // Most recent first: 'Older' had the later message. Each chat's last activity is its own newest message.
    expect((await myChats(t, ada.token)).map((c) => c.display_name)).toEqual(['Older', 'Newer']);
    expect(await lastActivityOf(t, newer)).toBe(early.message.timestamp);
    expect(await lastActivityOf(t, older)).toBe(late.message.timestamp);
  });
});
