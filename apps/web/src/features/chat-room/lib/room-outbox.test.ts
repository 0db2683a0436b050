import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { nextSeq, type Outbox, type OutboxEntry } from '../../../lib/offline/outbox';
import { pendingFromOutbox } from '../../../lib/offline/outbox-sends';
import { followedByOutbox, testOutboxDatabase } from '../../../lib/offline/test-outbox';
import { initialRoomMessages, type RoomAction, type RoomMessages, roomReducer } from './room-messages';
import { flushFrames } from './room-sends';

// The outbox's rules as the room applies them (use-pending-messages.ts wires these same functions to the
// socket): what waits goes in the order typed, with the client_id it was given, and leaves the outbox only
// when the server's echo shows it stored — so a message lands once, however often it is sent.

const database = () => testOutboxDatabase('room-outbox-test');

const typed = (client_id: string, body: string, patch: Partial<OutboxEntry> = {}): OutboxEntry => ({
  client_id,
  chat_id: 'c1',
  body,
  timestamp: new Date().toISOString(),
  seq: nextSeq(),
  ...patch,
});

/** A room that dispatches actions and keeps its outbox in step, as the hook's effect does. */
const room = (outbox: Outbox) =>
  followedByOutbox<RoomMessages, RoomAction>(
    roomReducer,
    roomReducer(initialRoomMessages, { type: 'page', messages: [], position: 'latest' }),
    outbox,
  );

describe('the outbox in a room', () => {
  it('sends what was typed offline, after a reload, in order, and forgets each message once stored', async () => {
    const open = database();
    // Offline: two messages typed, each kept before anything else.
    const before = room(open());
    for (const entry of [typed('k1', 'first'), typed('k2', 'second')]) {
      await open().add(entry);
      before.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    }

    // The tab reloads: the room comes back from the outbox alone.
    const outbox = open();
    const after = room(outbox);
    for (const entry of await outbox.forChat('c1'))
      after.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    expect(after.state.pending.map((p) => [p.body, p.status])).toEqual([
      ['first', 'sending'],
      ['second', 'sending'],
    ]);

    // Online: the open sends both, in order, with their first client_ids.
    expect(flushFrames(after.state.pending)).toEqual([
      { type: 'chat_message', body: 'first', client_id: 'k1' },
      { type: 'chat_message', body: 'second', client_id: 'k2' },
    ]);

    // The first is echoed, then the connection drops: only the second goes again, with the same client_id.
    after.dispatch({
      type: 'received',
      message: testMessage(10, { sender: 1, body: 'first', client_id: 'k1' }),
    });
    await after.settled();
    expect((await open().forChat('c1')).map((e) => e.client_id)).toEqual(['k2']);
    expect(flushFrames(after.state.pending)).toEqual([
      { type: 'chat_message', body: 'second', client_id: 'k2' },
    ]);

    // The server stored the second before the drop: its answer to the resend is the stored message, again.
    const stored = testMessage(11, { sender: 1, body: 'second', client_id: 'k2' });
    after.dispatch({ type: 'received', message: stored, client_id: 'k2' });
    after.dispatch({ type: 'received', message: stored, client_id: 'k2' });
    await after.settled();
    expect(after.state.messages.map((m) => m.body)).toEqual(['first', 'second']);
    expect(after.state.pending).toEqual([]);
    expect(await open().all()).toEqual([]);
  });

  it('finds a message echoed in a page after a reload (the tab closed before its echo was seen)', async () => {
    const outbox = database()();
    const entry = typed('k1', 'hello');
    await outbox.add(entry);
    const r = room(outbox);
    r.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    r.dispatch({
      type: 'page',
      messages: [testMessage(4, { sender: 1, body: 'hello', client_id: 'k1' })],
      position: 'newer',
    });
    await r.settled();
    expect(flushFrames(r.state.pending)).toEqual([]);
    expect(await outbox.all()).toEqual([]);
  });

  it('drops a cancelled message from the outbox, so no later open sends it', async () => {
    const outbox = database()();
    const r = room(outbox);
    for (const entry of [typed('k1', 'keep'), typed('k2', 'cancel me')]) {
      await outbox.add(entry);
      r.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    }
    r.dispatch({ type: 'pending_remove', client_id: 'k2' });
    await r.settled();
    expect(flushFrames(r.state.pending).map((f) => f.type === 'chat_message' && f.client_id)).toEqual(['k1']);
    expect((await outbox.all()).map((e) => e.client_id)).toEqual(['k1']);
  });

  it('holds a message back until its files are up, then sends their ids, never the files again', async () => {
    const outbox = database()();
    const file = new File(['png'], 'photo.png', { type: 'image/png' });
    const entry = typed('k1', '', {
      files: [file],
      uploads: [{ name: 'photo.png', size: 3, type: 'image' }],
    });
    await outbox.add(entry);
    const restored = pendingFromOutbox((await outbox.get('k1'))!);
    expect(restored).toMatchObject({ status: 'uploading', progress: 0, uploads: [{ name: 'photo.png' }] });
    const r = room(outbox);
    r.dispatch({ type: 'pending', pending: restored });
    expect(flushFrames(r.state.pending)).toEqual([]);

    await outbox.patch('k1', { file_ids: [77], files: undefined });
    expect(pendingFromOutbox((await outbox.get('k1'))!)).toMatchObject({
      status: 'sending',
      file_ids: [77],
      progress: 1,
    });
    r.dispatch({
      type: 'pending_update',
      client_id: 'k1',
      patch: { status: 'sending', progress: 1, file_ids: [77] },
    });
    expect(flushFrames(r.state.pending)).toEqual([
      { type: 'chat_message', body: '', client_id: 'k1', file_ids: [77] },
    ]);
  });

  it("keeps the server's refusal through a reload, and sends nothing until it is retried", async () => {
    const outbox = database()();
    const entry = typed('k1', 'too soon');
    await outbox.add(entry);
    const r = room(outbox);
    r.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    r.dispatch({ type: 'pending_failed', client_id: 'k1', error: 'Slow down' });
    await r.settled();
    const reloaded = pendingFromOutbox((await outbox.get('k1'))!);
    expect(reloaded).toMatchObject({ status: 'error', error: 'Slow down' });
    expect(flushFrames([reloaded])).toEqual([]);

    r.dispatch({ type: 'pending_retry', client_id: 'k1' });
    await r.settled();
    expect(await outbox.get('k1')).not.toHaveProperty('error');
  });

  it("leaves a thread's replies out of the room's pending list: they are their pane's", async () => {
    const outbox = database()();
    await outbox.add(typed('k1', 'in the room'));
    await outbox.add(typed('t1', 'in a thread', { thread_root: 40 }));
    await outbox.add(typed('t2', 'in a thread, and the chat', { thread_root: 40, also_in_chat: true }));
    const r = room(outbox);
    for (const entry of await outbox.forChat('c1'))
      r.dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
    expect(r.state.pending.map((p) => p.client_id)).toEqual(['k1']);
    expect(flushFrames(r.state.pending)).toEqual([
      { type: 'chat_message', body: 'in the room', client_id: 'k1' },
    ]);
    // A thread-only echo never reaches the timeline nor touches the room's pending list.
    r.dispatch({
      type: 'received',
      message: testMessage(41, { sender: 1, body: 'in a thread', client_id: 't1', thread_root: 40 }),
      client_id: 't1',
    });
    await r.settled();
    expect(r.state.messages).toEqual([]);
    expect((await outbox.threadReplies('c1')).map((e) => e.client_id)).toEqual(['t1', 't2']);
  });
});
