import { pollFromInput, type ServerFrame } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { testMessage } from '../../../lib/messages/test-message';
import { READ_BATCH, readFrames, replyFrame, threadActionOf } from './thread-frames';
import type { ThreadPending } from './thread-state';

const ME = 1;
const state = {
  root: testMessage(10),
  replies: [testMessage(11, { thread_root: 10 })],
  pending: [
    {
      client_id: 'c1',
      body: 'hi',
      timestamp: 't',
      status: 'sending',
      also_in_chat: false,
    } satisfies ThreadPending,
  ],
};
const of = (frame: ServerFrame) => threadActionOf(frame, 10, ME, state);

describe('threadActionOf', () => {
  it('takes the replies and the summary of its own thread alone', () => {
    const mine = testMessage(12, { thread_root: 10 });
    expect(of({ type: 'chat_message', message: mine, client_id: null })).toMatchObject({ type: 'reply' });
    expect(of({ type: 'chat_message', message: testMessage(13), client_id: null })).toBeNull();
    expect(of({ type: 'chat_message', message: testMessage(14, { thread_root: 9 }) })).toBeNull();
    const thread = { reply_count: 2, last_reply_at: 't', participant_ids: [2] };
    expect(of({ type: 'thread_updated', root_id: 10, thread })).toEqual({ type: 'summary', thread });
    expect(of({ type: 'thread_updated', root_id: 9, thread })).toBeNull();
  });

  it('routes changes of its root and its replies, not of other messages', () => {
    expect(of({ type: 'message_deleted', message_id: 10 })).toMatchObject({ type: 'deleted' });
    expect(of({ type: 'message_deleted', message_id: 11 })).toMatchObject({ type: 'deleted' });
    expect(of({ type: 'message_deleted', message_id: 5 })).toBeNull();
    expect(of({ type: 'reactions_updated', message_id: 11, reactions: [] })).toMatchObject({
      type: 'reactions',
    });
    expect(of({ type: 'message_updated', message: testMessage(15, { thread_root: 10 }) })).toMatchObject({
      type: 'updated',
    });
    expect(of({ type: 'message_updated', message: testMessage(5) })).toBeNull();
    const poll = pollFromInput({ question: 'Q', options: ['a', 'b'], multiple: false, anonymous: true });
    expect(of({ type: 'poll_updated', message_id: 11, poll })).toEqual({
      type: 'poll',
      message_id: 11,
      poll,
    });
    expect(of({ type: 'poll_updated', message_id: 5, poll })).toBeNull();
  });

  it('marks a refusal of a reply of its own, and leaves other errors to the room', () => {
    expect(of({ type: 'error', message: 'No', client_id: 'c1' })).toEqual({
      type: 'pending_update',
      client_id: 'c1',
      patch: { status: 'error', error: 'No' },
    });
    expect(of({ type: 'error', message: 'No', client_id: 'elsewhere' })).toBeNull();
    expect(of({ type: 'error', message: 'No' })).toBeNull();
  });
});

describe('frames sent', () => {
  it('a reply names its root, and the chat, files and quote only when it has them', () => {
    const p = state.pending[0]!;
    expect(replyFrame(10, p)).toEqual({ type: 'chat_message', body: 'hi', client_id: 'c1', thread_root: 10 });
    const full = {
      ...p,
      also_in_chat: true,
      file_ids: [3],
      reply_to: { id: 11, sender_name: 'Grace', body: 'x', is_deleted: false },
    };
    expect(replyFrame(10, full)).toMatchObject({ also_in_chat: true, file_ids: [3], reply_to: 11 });
  });

  it('reads go in batches the protocol allows, each naming the thread', () => {
    const ids = Array.from({ length: READ_BATCH + 1 }, (_, i) => i + 1);
    const frames = readFrames(10, ids);
    expect(frames).toHaveLength(2);
    expect(frames[1]).toEqual({ type: 'read_messages', message_ids: [READ_BATCH + 1], thread_root: 10 });
  });
});
