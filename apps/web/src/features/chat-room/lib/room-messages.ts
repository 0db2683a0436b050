import type { Message, Poll, Reaction, ThreadSummary } from '@parley/protocol';
import {
  applyDeleted,
  applyPoll,
  applyReactions,
  applyThread,
  applyUpdated,
  sameContent,
  withOwnVotes,
} from '../../../lib/messages/message-changes';
import {
  addPending,
  type PendingMessage,
  patchPending,
  removePending,
  withPending,
} from '../../../lib/messages/pending-message';
import { applyVoicePlayed } from '../../../lib/messages/voice-played';
import { PAGE_SIZE } from './page-size';

// The live message list of one room, as a pure reducer: confirmed messages (unique by id, ascending) plus
// this user's pending sends keyed by client_id until the server echoes them. Ticks only ever move forward. A
// thread's replies stay in their thread (unless also sent to the chat); their roots carry the thread's summary.

export type { PendingMessage };
export { PAGE_SIZE };

export interface RoomMessages {
  messages: Message[];
  pending: PendingMessage[];
  /** Whether a page before the first message may exist. */
  hasOlder: boolean;
  /** Whether the first page arrived. */
  loaded: boolean;
}

export type RoomAction =
  | {
      type: 'page';
      messages: Message[];
      /** 'around': a page around a message further back, joined up with the list (see loadAround). */
      position: 'latest' | 'older' | 'newer' | 'around';
      pageSize?: number;
      /** Messages whose copies in the list stay as they are (see mergeMessages). */
      keep?: ReadonlySet<number>;
    }
  | { type: 'received'; message: Message; client_id?: string | null }
  | { type: 'pending'; pending: PendingMessage }
  | { type: 'pending_failed'; client_id: string; error: string }
  | { type: 'pending_retry'; client_id: string }
  | {
      type: 'pending_update';
      client_id: string;
      patch: Partial<Pick<PendingMessage, 'status' | 'progress' | 'file_ids'>>;
    }
  | { type: 'pending_remove'; client_id: string }
  | { type: 'read'; ids: number[] }
  | { type: 'voice_played'; message_id: number; file_id: number }
  | { type: 'delivered'; ids: number[] }
  | { type: 'updated'; message: Message; meId: number }
  | { type: 'deleted'; message_id: number }
  | { type: 'reactions'; message_id: number; reactions: Reaction[]; meId: number }
  | { type: 'thread'; root_id: number; thread: ThreadSummary }
  | { type: 'poll'; message_id: number; poll: Poll };

/** A reply that lives in its thread alone: the main timeline never shows it. */
export const threadOnly = (m: Pick<Message, 'thread_root' | 'also_in_chat'>): boolean =>
  m.thread_root != null && !m.also_in_chat;

export const initialRoomMessages: RoomMessages = {
  messages: [],
  pending: [],
  hasOlder: false,
  loaded: false,
};

/** The list a room starts with: its newest page when the query cache has it already, else empty. */
export const seededRoomMessages = (latest: Message[] | undefined): RoomMessages =>
  latest
    ? roomReducer(initialRoomMessages, { type: 'page', messages: latest, position: 'latest' })
    : initialRoomMessages;

/** A copy of `incoming` that keeps every tick the list already had (a stale copy must not undo 'Read'). */
function keepTicks(current: Message, incoming: Message): Message {
  return {
    ...incoming,
    is_sent: current.is_sent || incoming.is_sent,
    is_delivered: current.is_delivered || incoming.is_delivered || current.is_read || incoming.is_read,
    is_read: current.is_read || incoming.is_read,
  };
}

const editedTime = (m: Message) => (m.edited_at ? Date.parse(m.edited_at) : 0);

/**
 * What the list shows of a message it has when another copy comes (a page fetched again, an echo): the copy,
 * unless it is older than what the list shows — it still has a body the list saw deleted, or an earlier edit —
 * as a page read before a live frame but answered after it would be. Ticks only move forward either way.
 */
function newerCopy(current: Message, incoming: Message): Message {
  const stale = (current.is_deleted && !incoming.is_deleted) || editedTime(incoming) < editedTime(current);
  return keepTicks(current, stale ? current : incoming);
}

const sameMessage = (a: Message, b: Message) =>
  sameContent(a, b) &&
  a.is_sent === b.is_sent &&
  a.is_delivered === b.is_delivered &&
  a.is_read === b.is_read &&
  a.is_error === b.is_error &&
  a.sender_name === b.sender_name &&
  a.sender_avatar === b.sender_avatar;

const NO_IDS: ReadonlySet<number> = new Set();

/**
 * Merges messages into an ascending list, de-duplicated by id. A message the list has is updated in place
 * (a catch-up reads the loaded stretch again for its edits, deletions and reactions) — except those in
 * `keep`, which live frames changed while the copies were on their way. Unchanged, it is the same array.
 */
export function mergeMessages(
  list: Message[],
  incoming: Message[],
  keep: ReadonlySet<number> = NO_IDS,
): Message[] {
  if (incoming.length === 0) return list;
  const sorted = [...incoming].sort((a, b) => a.id - b.id);
  const lastId = list.length ? list[list.length - 1]!.id : 0;
  // New messages after the list: the common append.
  if (sorted[0]!.id > lastId) {
    const out = list.slice();
    for (const m of sorted) if (out.length === 0 || out[out.length - 1]!.id !== m.id) out.push(m);
    return out;
  }
  // One pass over both ascending lists: new ids slot in, known ones take the newer copy.
  const out: Message[] = [];
  let changed = false;
  let i = 0;
  for (const m of sorted) {
    while (i < list.length && list[i]!.id < m.id) out.push(list[i++]!);
    const current = i < list.length && list[i]!.id === m.id ? list[i]! : null;
    if (!current) {
      if (out.length === 0 || out[out.length - 1]!.id !== m.id) {
        out.push(m);
        changed = true;
      }
      continue;
    }
    i++;
    const next = keep.has(m.id) ? current : newerCopy(current, m);
    if (next !== current && !sameMessage(current, next)) {
      out.push(next);
      changed = true;
    } else out.push(current);
  }
  if (!changed) return list;
  while (i < list.length) out.push(list[i++]!);
  return out;
}

function withoutEchoed(
  pending: PendingMessage[],
  messages: Message[],
  extra?: string | null,
): PendingMessage[] {
  if (pending.length === 0) return pending;
  const echoed = new Set<string>();
  for (const m of messages) if (m.client_id) echoed.add(m.client_id);
  if (extra) echoed.add(extra);
  if (echoed.size === 0) return pending;
  const left = pending.filter((p) => !echoed.has(p.client_id));
  return left.length === pending.length ? pending : left;
}

function markIds(list: Message[], ids: number[], patch: (m: Message) => Message): Message[] {
  if (ids.length === 0) return list;
  const set = new Set(ids);
  let changed = false;
  const out = list.map((m) => {
    if (!set.has(m.id)) return m;
    const next = patch(m);
    if (next !== m) changed = true;
    return next;
  });
  return changed ? out : list;
}

export function roomReducer(state: RoomMessages, action: RoomAction): RoomMessages {
  switch (action.type) {
    case 'page': {
      const messages = mergeMessages(state.messages, action.messages, action.keep);
      const full = action.messages.length >= (action.pageSize ?? PAGE_SIZE);
      let hasOlder = state.hasOlder;
      if (action.position === 'older') hasOlder = full;
      // Reaching back past the first message: older history may lie before it again.
      else if (action.position === 'around')
        hasOlder = hasOlder || (action.messages.length > 0 && messages[0] !== state.messages[0]);
      else if (action.position === 'latest' && !state.loaded) hasOlder = full;
      return {
        messages,
        pending: withoutEchoed(state.pending, action.messages),
        hasOlder,
        loaded: state.loaded || action.position === 'latest',
      };
    }
    case 'received': {
      if (threadOnly(action.message)) return state;
      // A room frame's poll is nobody's: the reader's own choices stay as shown.
      const incoming = action.message.poll
        ? withOwnVotes(
            state.messages.find((m) => m.id === action.message.id),
            action.message,
          )
        : action.message;
      const messages = mergeMessages(state.messages, [incoming]);
      const pending = withoutEchoed(state.pending, [action.message], action.client_id);
      if (messages === state.messages && pending === state.pending) return state;
      return { ...state, messages, pending };
    }
    case 'pending':
      return withPending(state, addPending(state.pending, action.pending));
    case 'pending_failed':
    case 'pending_retry': {
      const failed = action.type === 'pending_failed';
      let changed = false;
      const pending = state.pending.map((p) => {
        if (p.client_id !== action.client_id) return p;
        changed = true;
        return failed
          ? { ...p, status: 'error' as const, error: action.error }
          : { ...p, status: 'sending' as const };
      });
      return changed ? { ...state, pending } : state;
    }
    case 'pending_update':
      return withPending(state, patchPending(state.pending, action.client_id, action.patch));
    case 'pending_remove':
      return withPending(state, removePending(state.pending, action.client_id));
    case 'read': {
      const messages = markIds(state.messages, action.ids, (m) =>
        m.is_read ? m : { ...m, is_read: true, is_delivered: true, is_sent: true },
      );
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'delivered': {
      const messages = markIds(state.messages, action.ids, (m) =>
        m.is_delivered ? m : { ...m, is_delivered: true, is_sent: true },
      );
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'voice_played': {
      const messages = applyVoicePlayed(state.messages, action.message_id, action.file_id);
      return messages === state.messages ? state : { ...state, messages };
    }
    case 'updated':
    case 'deleted':
    case 'reactions':
    case 'thread':
    case 'poll': {
      const messages =
        action.type === 'updated'
          ? applyUpdated(state.messages, action.message, action.meId)
          : action.type === 'deleted'
            ? applyDeleted(state.messages, action.message_id)
            : action.type === 'reactions'
              ? applyReactions(state.messages, action.message_id, action.reactions, action.meId)
              : action.type === 'poll'
                ? applyPoll(state.messages, action.message_id, action.poll)
                : applyThread(state.messages, action.root_id, action.thread);
      return messages === state.messages ? state : { ...state, messages };
    }
  }
}

/** Others' messages not yet read, that this client has not reported since `reported` was last cleared. */
export function unreadFromOthers(messages: Message[], me: number, reported: ReadonlySet<number>): number[] {
  const ids: number[] = [];
  for (const m of messages) if (m.sender !== me && !m.is_read && !reported.has(m.id)) ids.push(m.id);
  return ids;
}

/** Others' user messages this client received that nobody has acknowledged as delivered yet. */
export function undeliveredFromOthers(messages: Message[], me: number, acked: ReadonlySet<number>): number[] {
  const ids: number[] = [];
  for (const m of messages) {
    if (m.kind === 'user' && m.sender !== me && !m.is_delivered && !m.is_read && !acked.has(m.id))
      ids.push(m.id);
  }
  return ids;
}
