import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage, thumbsUp } from '../../../lib/messages/test-message';
import {
  initialThread,
  mergeReplies,
  type ThreadPending,
  type ThreadState,
  threadParts,
  threadPendingFrom,
  threadReducer,
} from './thread-state';

const ME = 1;
const root = testMessage(10, { body: 'Who brings the maps?' });
const reply = (id: number, patch: Partial<Message> = {}) => testMessage(id, { thread_root: 10, ...patch });
const ids = (list: Message[]) => list.map((m) => m.id);
const summary = (reply_count: number) => ({
  reply_count,
  last_reply_at: `2026-01-01T12:0${reply_count}:00.000Z`,
  participant_ids: [2],
});

const loaded = (replies: Message[], next_cursor: string | null = null, patch: Partial<Message> = {}) =>
  threadReducer(initialThread, {
    type: 'loaded',
    root: { ...root, ...patch },
    replies,
    next_cursor,
    following: false,
  });

const pending = (client_id: string): ThreadPending => ({
  client_id,
  body: 'on its way',
  timestamp: '2026-01-01T12:00:00.000Z',
  status: 'sending',
  also_in_chat: false,
});

describe('mergeReplies', () => {
  it('keeps replies unique and ascending, and the same list when nothing is new', () => {
    const list = [reply(11), reply(13)];
    expect(ids(mergeReplies(list, [reply(12), reply(13)]))).toEqual([11, 12, 13]);
    expect(mergeReplies(list, [])).toBe(list);
  });

  it('keeps a reply deleted or edited since a copy was fetched', () => {
    const list = [
      reply(11, { is_deleted: true, body: '' }),
      reply(12, { edited_at: '2026-01-02T00:00:00Z' }),
    ];
    const out = mergeReplies(list, [reply(11), reply(12, { edited_at: null, body: 'old' })]);
    expect(out[0]!.is_deleted).toBe(true);
    expect(out[1]!.edited_at).toBe('2026-01-02T00:00:00Z');
  });
});

describe('threadReducer', () => {
  it('loads the root and the first page, and the next page after it', () => {
    let s = loaded([reply(11), reply(12)], '12');
    expect(s).toMatchObject({ loaded: true, nextCursor: '12', following: false });
    expect(s.root?.id).toBe(10);
    s = threadReducer(s, { type: 'newer', root, replies: [reply(13)], next_cursor: null });
    expect(ids(s.replies)).toEqual([11, 12, 13]);
    expect(s.nextCursor).toBeNull();
  });

  it('takes a live reply of this thread, drops its pending copy and follows after one of its own', () => {
    let s = threadReducer(loaded([reply(11)]), { type: 'pending', pending: pending('c1') });
    s = threadReducer(s, {
      type: 'reply',
      message: reply(12, { sender: ME, client_id: 'c1' }),
      client_id: 'c1',
      meId: ME,
    });
    expect(ids(s.replies)).toEqual([11, 12]);
    expect(s.pending).toEqual([]);
    expect(s.following).toBe(true);
  });

  it("follows when the first reply comes under the reader's root, or one mentions them", () => {
    const mine = loaded([], null, { sender: ME });
    expect(threadReducer(mine, { type: 'reply', message: reply(11), meId: ME }).following).toBe(true);
    const others = loaded([reply(11)]);
    expect(threadReducer(others, { type: 'reply', message: reply(12), meId: ME }).following).toBe(false);
    const mention = reply(12, { mentions: [ME] });
    expect(threadReducer(others, { type: 'reply', message: mention, meId: ME }).following).toBe(true);
  });

  it('keeps the newer summary of the root', () => {
    let s = loaded([], null, { thread: summary(2) });
    s = threadReducer(s, { type: 'summary', thread: summary(3) });
    expect(s.root?.thread?.reply_count).toBe(3);
    expect(threadReducer(s, { type: 'summary', thread: summary(2) })).toBe(s);
  });

  it('applies edits, deletions and reactions to the root and the replies alike', () => {
    let s = loaded([reply(11)]);
    s = threadReducer(s, { type: 'updated', message: { ...root, body: 'Maps?', edited_at: 'e' }, meId: ME });
    expect(s.root?.body).toBe('Maps?');
    s = threadReducer(s, { type: 'reactions', message_id: 11, reactions: [thumbsUp([ME])], meId: ME });
    expect(s.replies[0]!.reactions[0]!.me).toBe(true);
    s = threadReducer(s, { type: 'deleted', message_id: 10 });
    expect(s.root).toMatchObject({ is_deleted: true, body: '' });
    expect(threadReducer(s, { type: 'deleted', message_id: 99 })).toBe(s);
  });

  it('marks a pending reply refused, sends it again, and drops it', () => {
    let s = threadReducer(loaded([]), { type: 'pending', pending: pending('c1') });
    s = threadReducer(s, {
      type: 'pending_update',
      client_id: 'c1',
      patch: { status: 'error', error: 'No' },
    });
    expect(s.pending[0]).toMatchObject({ status: 'error', error: 'No' });
    s = threadReducer(s, { type: 'pending_remove', client_id: 'c1' });
    expect(s.pending).toEqual([]);
  });
});

describe('replies restored from the outbox', () => {
  it('come before the replies typed since, once each, and not when they are stored already', () => {
    let s = threadReducer(loaded([reply(11, { sender: ME, client_id: 'stored' })]), {
      type: 'pending',
      pending: pending('typed-now'),
    });
    s = threadReducer(s, {
      type: 'restored',
      pending: [pending('stored'), pending('waiting-1'), pending('typed-now'), pending('waiting-2')],
    });
    expect(s.pending.map((p) => p.client_id)).toEqual(['waiting-1', 'waiting-2', 'typed-now']);
    expect(threadReducer(s, { type: 'restored', pending: [pending('stored')] })).toBe(s);
  });

  it('show as they were kept: to the chat too or not, waiting for their files, refused', () => {
    const entry = {
      client_id: 'k1',
      chat_id: 'c1',
      body: 'see you there',
      timestamp: '2026-01-01T12:00:00.000Z',
      seq: 1,
      thread_root: 10,
    };
    expect(threadPendingFrom(entry)).toEqual({
      client_id: 'k1',
      body: 'see you there',
      timestamp: '2026-01-01T12:00:00.000Z',
      status: 'sending',
      also_in_chat: false,
    });
    expect(threadPendingFrom({ ...entry, also_in_chat: true, error: 'Slow down' })).toMatchObject({
      status: 'error',
      error: 'Slow down',
      also_in_chat: true,
    });
    const uploads = [{ name: 'a.png', size: 3, type: 'image' as const }];
    expect(threadPendingFrom({ ...entry, files: [new File(['png'], 'a.png')], uploads })).toMatchObject({
      status: 'uploading',
      progress: 0,
    });
  });
});

describe('threadParts', () => {
  it('puts the replies that came live past the pages not loaded yet after the gap', () => {
    const s: Pick<ThreadState, 'replies' | 'nextCursor'> = {
      replies: [reply(11), reply(12), reply(40)],
      nextCursor: '12',
    };
    expect(ids(threadParts(s).loaded)).toEqual([11, 12]);
    expect(ids(threadParts(s).later)).toEqual([40]);
    expect(threadParts({ ...s, nextCursor: null }).later).toEqual([]);
  });
});
