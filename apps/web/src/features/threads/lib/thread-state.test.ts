import type { Message } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage, thumbsUp } from '../../../lib/messages/test-message';
import {
  initialThread,
  mergeReplies,
  type ThreadPending,
  type ThreadState,
  threadParts,
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
