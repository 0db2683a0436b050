import type { Message, Poll, Reaction, ThreadSummary } from '@parley/protocol';
import {
  applyDeleted,
  applyPoll,
  applyReactions,
  applyUpdated,
  messageFor,
  newerThread,
} from '../../../lib/messages/message-changes';
import {
  addPending,
  type PendingMessage,
  patchPending,
  removePending,
  withPending,
} from '../../../lib/messages/pending-message';
import type { OutboxEntry } from '../../../lib/offline/outbox';
import { pendingFromOutbox } from '../../../lib/offline/outbox-sends';

// One open thread as a pure reducer: its root, its replies (unique by id, ascending) and this reader's replies
// on their way until the room echoes them. Pages come oldest first; replies that arrive live while newer pages
// are still to be loaded are kept too, after the gap that the next page fills (threadParts). The pending
// replies are the outbox's entries of this thread (lib/offline/outbox.ts), restored when the pane opens.

/** A reply of this reader's on its way, as the room's pending messages are, and to the chat too or not. */
export interface ThreadPending extends PendingMessage {
  /** Sent to the chat too: it shows in the main timeline as well. */
  also_in_chat: boolean;
}

export interface ThreadState {
  root: Message | null;
  replies: Message[];
  pending: ThreadPending[];
  /** Where the next (newer) page starts; null once the newest reply is loaded. */
  nextCursor: string | null;
  /** Whether the reader follows the thread (is told of its replies). */
  following: boolean;
  loaded: boolean;
}

export type ThreadAction =
  /** The thread read from its start (on opening, and again after a drop) up to `next_cursor`. */
  | { type: 'loaded'; root: Message; replies: Message[]; next_cursor: string | null; following: boolean }
  /** The next page of newer replies. */
  | { type: 'newer'; root: Message; replies: Message[]; next_cursor: string | null }
  | { type: 'reply'; message: Message; client_id?: string | null; meId: number }
  | { type: 'summary'; thread: ThreadSummary }
  | { type: 'updated'; message: Message; meId: number }
  | { type: 'deleted'; message_id: number }
  | { type: 'reactions'; message_id: number; reactions: Reaction[]; meId: number }
  | { type: 'poll'; message_id: number; poll: Poll }
  | { type: 'following'; following: boolean }
  | { type: 'pending'; pending: ThreadPending }
  /** The replies found waiting in the outbox when the pane opened: typed before any typed since. */
  | { type: 'restored'; pending: ThreadPending[] }
  | {
      type: 'pending_update';
      client_id: string;
      patch: Partial<Pick<ThreadPending, 'status' | 'error' | 'progress' | 'file_ids'>>;
    }
  | { type: 'pending_remove'; client_id: string };

export const initialThread: ThreadState = {
  root: null,
  replies: [],
  pending: [],
  nextCursor: null,
  following: false,
  loaded: false,
};

const editedAt = (m: Message) => (m.edited_at ? Date.parse(m.edited_at) : 0);

/** A fetched copy replaces the one shown, unless the shown one is newer (deleted or edited since). */
const newerCopy = (shown: Message, fetched: Message) =>
  (shown.is_deleted && !fetched.is_deleted) || editedAt(fetched) < editedAt(shown) ? shown : fetched;

/** Replies merged by id, ascending; the same array when nothing new came. */
export function mergeReplies(list: Message[], incoming: Message[]): Message[] {
  if (incoming.length === 0) return list;
  const byId = new Map(list.map((m) => [m.id, m]));
  let changed = false;
  for (const m of incoming) {
    const shown = byId.get(m.id);
    const next = shown ? newerCopy(shown, m) : m;
    if (next !== shown) {
      byId.set(m.id, next);
      changed = true;
    }
  }
  return changed ? [...byId.values()].sort((a, b) => a.id - b.id) : list;
}

/** A reply waiting in the outbox as the pane shows it. */
export const threadPendingFrom = (entry: OutboxEntry): ThreadPending => ({
  ...pendingFromOutbox(entry),
  also_in_chat: entry.also_in_chat === true,
});

/** Pending replies whose echo (a reply with their client_id) has come. */
function withoutEchoed(pending: ThreadPending[], replies: Message[], extra?: string | null) {
  if (pending.length === 0) return pending;
  const echoed = new Set(replies.map((m) => m.client_id).filter(Boolean));
  if (extra) echoed.add(extra);
  const left = pending.filter((p) => !echoed.has(p.client_id));
  return left.length === pending.length ? pending : left;
}

/** The root as a fetched copy has it, keeping the newer thread summary of the two. */
function rootFrom(shown: Message | null, fetched: Message): Message {
  const root = shown ? newerCopy(shown, fetched) : fetched;
  const thread = newerThread(shown?.thread, fetched.thread);
  return root.thread === thread ? root : { ...root, thread };
}

/** Applies a change of one message (an edit, a deletion, reactions) to the root and the replies alike. */
function changed(state: ThreadState, apply: (list: Message[]) => Message[]): ThreadState {
  const root = state.root ? (apply([state.root])[0] ?? state.root) : null;
  const replies = apply(state.replies);
  return root === state.root && replies === state.replies ? state : { ...state, root, replies };
}

/**
 * Whether a reply makes the reader follow the thread, as the server records it: their own reply, one that
 * mentions them, or the first reply under their root.
 */
function followsAfter(state: ThreadState, reply: Message, meId: number): boolean {
  if (reply.sender === meId || reply.mentions.includes(meId)) return true;
  const root = state.root;
  return root?.sender === meId && (root.thread?.reply_count ?? 0) <= 1 && state.replies.length === 0;
}

export function threadReducer(state: ThreadState, action: ThreadAction): ThreadState {
  switch (action.type) {
    case 'loaded':
    case 'newer': {
      const replies = mergeReplies(state.replies, action.replies);
      return {
        ...state,
        root: rootFrom(state.root, action.root),
        replies,
        pending: withoutEchoed(state.pending, action.replies),
        nextCursor: action.next_cursor,
        following: action.type === 'loaded' ? action.following : state.following,
        loaded: true,
      };
    }
    case 'reply': {
      const replies = mergeReplies(state.replies, [messageFor(action.message, action.meId)]);
      const pending = withoutEchoed(state.pending, [action.message], action.client_id);
      const following = state.following || followsAfter(state, action.message, action.meId);
      return replies === state.replies && pending === state.pending && following === state.following
        ? state
        : { ...state, replies, pending, following };
    }
    case 'summary': {
      if (!state.root) return state;
      const thread = newerThread(state.root.thread, action.thread);
      return thread === state.root.thread ? state : { ...state, root: { ...state.root, thread } };
    }
    case 'updated':
      return changed(state, (list) => applyUpdated(list, action.message, action.meId));
    case 'deleted':
      return changed(state, (list) => applyDeleted(list, action.message_id));
    case 'reactions':
      return changed(state, (list) => applyReactions(list, action.message_id, action.reactions, action.meId));
    case 'poll':
      return changed(state, (list) => applyPoll(list, action.message_id, action.poll));
    case 'following':
      return state.following === action.following ? state : { ...state, following: action.following };
    case 'pending':
      return withPending(state, addPending(state.pending, action.pending));
    case 'restored': {
      const shown = new Set(state.pending.map((p) => p.client_id));
      const restored = withoutEchoed(
        action.pending.filter((p) => !shown.has(p.client_id)),
        state.replies,
      );
      return restored.length === 0 ? state : { ...state, pending: [...restored, ...state.pending] };
    }
    case 'pending_update':
      return withPending(state, patchPending(state.pending, action.client_id, action.patch));
    case 'pending_remove':
      return withPending(state, removePending(state.pending, action.client_id));
  }
}

/**
 * The replies as the pane draws them: those loaded from the start, and those that came live past the newer
 * pages not loaded yet (after a 'Show newer replies' button); `later` is empty once the newest page is in.
 */
export function threadParts(state: Pick<ThreadState, 'replies' | 'nextCursor'>): {
  loaded: Message[];
  later: Message[];
} {
  if (state.nextCursor === null) return { loaded: state.replies, later: [] };
  const gapAfter = Number(state.nextCursor);
  const index = state.replies.findIndex((m) => m.id > gapAfter);
  return index < 0
    ? { loaded: state.replies, later: [] }
    : { loaded: state.replies.slice(0, index), later: state.replies.slice(index) };
}
