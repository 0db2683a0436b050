import type { ClientFrame, ServerFrame } from '@parley/protocol';
import { outboxFrame } from '../../../lib/offline/outbox-sends';
import type { ThreadAction, ThreadPending, ThreadState } from './thread-state';

// What one thread makes of its chat's room frames, and the frames it sends there: its replies, and its reads.

/** Ids a read report carries at most (the protocol's bound). */
export const READ_BATCH = 500;

const concerns = (state: Pick<ThreadState, 'root' | 'replies'>, messageId: number) =>
  state.root?.id === messageId || state.replies.some((m) => m.id === messageId);

/**
 * The change a room frame makes to the thread under `rootId`, or null when it is about something else: a reply
 * of this thread, its summary, an edit, a deletion, reactions or a poll's votes of its root or of a reply it shows, a refusal of
 * a reply of this reader's.
 */
export function threadActionOf(
  frame: ServerFrame,
  rootId: number,
  meId: number,
  state: Pick<ThreadState, 'root' | 'replies' | 'pending'>,
): ThreadAction | null {
  switch (frame.type) {
    case 'chat_message':
      return frame.message.thread_root === rootId
        ? { type: 'reply', message: frame.message, client_id: frame.client_id, meId }
        : null;
    case 'thread_updated':
      return frame.root_id === rootId ? { type: 'summary', thread: frame.thread } : null;
    case 'message_updated':
      return frame.message.thread_root === rootId || concerns(state, frame.message.id)
        ? { type: 'updated', message: frame.message, meId }
        : null;
    case 'message_deleted':
      return concerns(state, frame.message_id) ? { type: 'deleted', message_id: frame.message_id } : null;
    case 'reactions_updated':
      return concerns(state, frame.message_id)
        ? { type: 'reactions', message_id: frame.message_id, reactions: frame.reactions, meId }
        : null;
    case 'poll_updated':
      return concerns(state, frame.message_id)
        ? { type: 'poll', message_id: frame.message_id, poll: frame.poll }
        : null;
    case 'error': {
      const { client_id } = frame;
      return client_id && state.pending.some((p) => p.client_id === client_id)
        ? { type: 'pending_update', client_id, patch: { status: 'error', error: frame.message } }
        : null;
    }
    default:
      return null;
  }
}

/** A reply's frame: in the thread under `rootId`, with its files, the reply it quotes, and to the chat too. */
export const replyFrame = (rootId: number, p: ThreadPending): ClientFrame =>
  outboxFrame({ ...p, thread_root: rootId });

/** The read reports for replies of the thread: its read mark moves, the chat's own marks stay. */
export function readFrames(rootId: number, ids: number[]): ClientFrame[] {
  const frames: ClientFrame[] = [];
  for (let i = 0; i < ids.length; i += READ_BATCH)
    frames.push({ type: 'read_messages', message_ids: ids.slice(i, i + READ_BATCH), thread_root: rootId });
  return frames;
}
