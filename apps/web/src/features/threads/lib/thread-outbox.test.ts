import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { nextSeq, type Outbox, type OutboxEntry } from '../../../lib/offline/outbox';
import { followedByOutbox, testOutboxDatabase } from '../../../lib/offline/test-outbox';
import { roomThreadReplies } from '../../../lib/offline/thread-sends';
import { replyFrame } from './thread-frames';
import {
  initialThread,
  type ThreadAction,
  type ThreadState,
  threadPendingFrom,
  threadReducer,
} from './thread-state';

// The outbox's rules as a thread's pane applies them (use-thread-sends.ts wires these same functions to the
// room's socket): a reply typed offline is kept with its root, comes back in its pane after a reload, goes in
// the order typed with its first client_id, and leaves the outbox when its echo shows it stored.

const database = () => testOutboxDatabase('thread-outbox-test');

const ME = 1;
const ROOT = 10;
const root = testMessage(ROOT, { sender: 2, body: 'Who brings the maps?' });

const typed = (client_id: string, body: string, patch: Partial<OutboxEntry> = {}): OutboxEntry => ({
  client_id,
  chat_id: 'c1',
  body,
  timestamp: new Date().toISOString(),
  seq: nextSeq(),
  thread_root: ROOT,
  also_in_chat: false,
  ...patch,
});

/** A pane that dispatches actions and keeps its outbox in step, as the hook's effect does. */
function pane(outbox: Outbox) {
  const list = followedByOutbox<ThreadState, ThreadAction>(threadReducer, initialThread, outbox);
  return Object.assign(list, {
    /** What its flush writes on the socket: the replies whose turn it is, in order. */
    frames: () => list.state.pending.filter((p) => p.status === 'sending').map((p) => replyFrame(ROOT, p)),
  });
}

describe('the outbox in a thread', () => {
  it('brings the replies typed offline back after a reload, sends them in order, and forgets each once stored', async () => {
    const open = database();
    for (const entry of [typed('k1', 'first'), typed('k2', 'second', { also_in_chat: true })])
      await open().add(entry);

    // The tab reloads on the thread's address: the pane restores both before the thread has loaded.
    const outbox = open();
    const p = pane(outbox);
    p.dispatch({
      type: 'restored',
      pending: (await outbox.threadReplies('c1', ROOT)).map(threadPendingFrom),
    });
    p.dispatch({ type: 'loaded', root, replies: [], next_cursor: null, following: false });
    expect(p.state.pending.map((q) => [q.body, q.status])).toEqual([
      ['first', 'sending'],
      ['second', 'sending'],
    ]);
    expect(p.frames()).toEqual([
      { type: 'chat_message', body: 'first', client_id: 'k1', thread_root: ROOT },
      { type: 'chat_message', body: 'second', client_id: 'k2', thread_root: ROOT, also_in_chat: true },
    ]);

    // Both echoed (the first twice: the server publishes a stored one again when it is resent).
    const first = testMessage(11, { sender: ME, body: 'first', client_id: 'k1', thread_root: ROOT });
    p.dispatch({ type: 'reply', message: first, client_id: 'k1', meId: ME });
    p.dispatch({ type: 'reply', message: first, client_id: 'k1', meId: ME });
    const second = { ...first, id: 12, body: 'second', client_id: 'k2', also_in_chat: true };
    p.dispatch({ type: 'reply', message: second, client_id: 'k2', meId: ME });
    await p.settled();
    expect(p.state.replies.map((m) => m.body)).toEqual(['first', 'second']);
    expect(p.state.pending).toEqual([]);
    expect(await open().all()).toEqual([]);
  });

  it('finds a reply stored before the tab closed in the thread it reads again', async () => {
    const outbox = database()();
    await outbox.add(typed('k1', 'hello'));
    const p = pane(outbox);
    p.dispatch({
      type: 'restored',
      pending: (await outbox.threadReplies('c1', ROOT)).map(threadPendingFrom),
    });
    const stored = testMessage(11, { sender: ME, body: 'hello', client_id: 'k1', thread_root: ROOT });
    p.dispatch({ type: 'loaded', root, replies: [stored], next_cursor: null, following: true });
    await p.settled();
    expect(p.frames()).toEqual([]);
    expect(await outbox.all()).toEqual([]);
  });

  it('keeps a refusal through a reload, where neither the pane nor the room sends it until Retry', async () => {
    const open = database();
    const outbox = open();
    await outbox.add(typed('k1', 'too soon'));
    const p = pane(outbox);
    p.dispatch({
      type: 'restored',
      pending: (await outbox.threadReplies('c1', ROOT)).map(threadPendingFrom),
    });
    p.dispatch({ type: 'pending_update', client_id: 'k1', patch: { status: 'error', error: 'Slow down' } });
    await p.settled();

    const kept = await open().threadReplies('c1', ROOT);
    expect(threadPendingFrom(kept[0]!)).toMatchObject({ status: 'error', error: 'Slow down' });
    expect(roomThreadReplies(kept, () => false)).toEqual([]);

    p.dispatch({ type: 'pending_update', client_id: 'k1', patch: { status: 'sending', error: undefined } });
    await p.settled();
    expect(await outbox.get('k1')).not.toHaveProperty('error');
    expect(roomThreadReplies(await outbox.threadReplies('c1'), () => false).map((e) => e.client_id)).toEqual([
      'k1',
    ]);
  });
});
