import 'fake-indexeddb/auto';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { bySeq, nextSeq, Outbox, type OutboxEntry, outboxFor } from './outbox';

let dbCount = 0;
/** A fresh outbox database per test; `reopen` is the same database as a reloaded tab sees it. */
function freshOutbox() {
  const name = `outbox-test-${++dbCount}`;
  return {
    outbox: new Outbox(createStore(name, 'messages')),
    reopen: () => new Outbox(createStore(name, 'messages')),
  };
}

const entry = (client_id: string, seq: number, patch: Partial<OutboxEntry> = {}): OutboxEntry => ({
  client_id,
  chat_id: 'c1',
  body: `text ${client_id}`,
  timestamp: '2026-01-01T12:00:00.000Z',
  seq,
  ...patch,
});

describe('nextSeq', () => {
  it('always increases, even when the clock stands still or goes back', () => {
    const a = nextSeq(1_000);
    const b = nextSeq(1_000);
    const c = nextSeq(900);
    expect(b).toBeGreaterThan(a);
    expect(c).toBeGreaterThan(b);
    expect(nextSeq(Date.now() + 60_000)).toBeGreaterThan(c);
  });
});

describe('Outbox', () => {
  let outbox: Outbox;
  let reopen: () => Outbox;
  beforeEach(() => {
    ({ outbox, reopen } = freshOutbox());
  });

  it('gives a chat its waiting messages in the order they were typed, whatever order they were stored in', async () => {
    await outbox.add(entry('b', 2));
    await outbox.add(entry('other-chat', 3, { chat_id: 'c2' }));
    await outbox.add(entry('c', 5));
    await outbox.add(entry('a', 1));
    expect((await outbox.forChat('c1')).map((e) => e.client_id)).toEqual(['a', 'b', 'c']);
    expect((await outbox.forChat('c2')).map((e) => e.client_id)).toEqual(['other-chat']);
    expect((await outbox.all()).map((e) => e.client_id)).toEqual(['a', 'b', 'other-chat', 'c']);
  });

  it("keeps a thread's replies apart from the room's messages, with their root and whether they go to the chat", async () => {
    await outbox.add(entry('room', 1));
    await outbox.add(entry('t2', 4, { thread_root: 20, also_in_chat: true }));
    await outbox.add(entry('t1', 2, { thread_root: 10 }));
    await outbox.add(entry('t3', 3, { thread_root: 10 }));
    await outbox.add(entry('elsewhere', 5, { chat_id: 'c2', thread_root: 10 }));
    expect((await outbox.forChat('c1')).map((e) => e.client_id)).toEqual(['room']);
    expect((await reopen().threadReplies('c1')).map((e) => e.client_id)).toEqual(['t1', 't3', 't2']);
    const thread = await reopen().threadReplies('c1', 20);
    expect(thread.map((e) => [e.client_id, e.thread_root, e.also_in_chat])).toEqual([['t2', 20, true]]);
    // A patch keeps what makes it a thread's reply.
    await outbox.patch('t1', { error: 'Slow down' });
    expect(await outbox.get('t1')).toMatchObject({ thread_root: 10, error: 'Slow down' });
  });

  it('keeps what waits across a reload: another connection to the database finds it, with its client_id', async () => {
    await outbox.add(
      entry('first', 1, { reply_to: { id: 9, sender_name: 'Grace', body: 'q', is_deleted: false } }),
    );
    await outbox.add(entry('second', 2));
    const afterReload = reopen();
    const waiting = await afterReload.forChat('c1');
    expect(waiting.map((e) => [e.client_id, e.body])).toEqual([
      ['first', 'text first'],
      ['second', 'text second'],
    ]);
    expect(waiting[0]?.reply_to?.id).toBe(9);
  });

  it('keeps chosen files until they are up, then only their ids (they are never uploaded twice)', async () => {
    const file = new File(['%PDF-1.4 tiny'], 'notes.pdf', { type: 'application/pdf' });
    await outbox.add(
      entry('files', 1, {
        body: '',
        files: [file],
        uploads: [{ name: 'notes.pdf', size: file.size, type: 'pdf' }],
      }),
    );
    const stored = (await reopen().get('files'))?.files?.[0];
    expect(stored?.name).toBe('notes.pdf');
    expect(await stored?.text()).toBe('%PDF-1.4 tiny');

    await outbox.patch('files', { file_ids: [41], files: undefined });
    const uploaded = await reopen().get('files');
    expect(uploaded?.file_ids).toEqual([41]);
    expect(uploaded).not.toHaveProperty('files');
    expect(uploaded?.uploads?.[0]?.name).toBe('notes.pdf');
  });

  it('never brings back a message that left (echoed or cancelled) when a late change arrives for it', async () => {
    await outbox.add(entry('gone', 1));
    await outbox.remove('gone');
    await outbox.patch('gone', { file_ids: [3] });
    expect(await outbox.get('gone')).toBeUndefined();
    expect(await outbox.all()).toEqual([]);
  });

  it('keeps a refusal with the message and drops it on retry', async () => {
    await outbox.add(entry('refused', 1));
    await outbox.patch('refused', { error: 'Too fast' });
    expect((await outbox.get('refused'))?.error).toBe('Too fast');
    await outbox.patch('refused', { error: undefined });
    expect(await outbox.get('refused')).not.toHaveProperty('error');
  });
});

describe('outboxFor', () => {
  it("gives each account its own outbox: one person never sees another's", async () => {
    await outboxFor(1).add(entry('ada-1', 1));
    await outboxFor(2).add(entry('grace-1', 2));
    expect((await outboxFor(1).all()).map((e) => e.client_id)).toEqual(['ada-1']);
    expect((await outboxFor(2).all()).map((e) => e.client_id)).toEqual(['grace-1']);
    expect(outboxFor(1)).toBe(outboxFor(1));
  });
});

describe('bySeq', () => {
  it('does not change the list it is given', () => {
    const list = [entry('b', 2), entry('a', 1)];
    expect(bySeq(list).map((e) => e.client_id)).toEqual(['a', 'b']);
    expect(list.map((e) => e.client_id)).toEqual(['b', 'a']);
  });
});
