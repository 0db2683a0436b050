import type { FileType, PollInput, ReplyQuote } from '@parley/protocol';

/** A message of this reader's on its way (into a room, or a thread), shown at once until the server echoes it. */
export interface PendingMessage {
  client_id: string;
  body: string;
  timestamp: string;
  /**
   * 'uploading' while its files go up (not yet sent on the socket); 'sending' until echoed; 'error' after the
   * server refused it (error frame with its client_id).
   */
  status: 'uploading' | 'sending' | 'error';
  error?: string;
  /** Chosen files, shown with the upload's progress (0..1) until the real message replaces this one. */
  uploads?: { name: string; size: number; type: FileType }[];
  progress?: number;
  /** The uploaded files' ids, sent (and resent) with the message. */
  file_ids?: number[];
  /** The message this one answers: its id goes out as `reply_to`, the quote is drawn meanwhile. */
  reply_to?: ReplyQuote;
  /** A poll on its way: drawn with no votes until it is stored. */
  poll?: PollInput;
}

// The pending list's changes, shared by the room's and a thread's reducers: each returns the same array when
// nothing changed, so the reducer keeps its state.

/** The list with `pending` at its end, unless one with its client_id is there already. */
export const addPending = <P extends PendingMessage>(list: P[], pending: P): P[] =>
  list.some((p) => p.client_id === pending.client_id) ? list : [...list, pending];

/** The list with `patch` applied to the message of `clientId`. */
export function patchPending<P extends PendingMessage>(
  list: P[],
  clientId: string,
  patch: Partial<NoInfer<P>>,
): P[] {
  const index = list.findIndex((p) => p.client_id === clientId);
  if (index < 0) return list;
  const out = list.slice();
  out[index] = { ...out[index]!, ...patch };
  return out;
}

/** The list without the message of `clientId`. */
export function removePending<P extends PendingMessage>(list: P[], clientId: string): P[] {
  const out = list.filter((p) => p.client_id !== clientId);
  return out.length === list.length ? list : out;
}

/** A state with this pending list; the same state when the list did not change. */
export const withPending = <S extends { pending: unknown[] }>(state: S, pending: S['pending']): S =>
  pending === state.pending ? state : { ...state, pending };
