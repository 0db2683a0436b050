import type { OutboxEntry } from './outbox';
import { filesReady } from './outbox-sends';

// Who sends a thread reply waiting in the outbox, so that it goes out once, in the order typed:
// - the thread's pane while one is open on its root: at each open of the room's socket (once it has read the
//   thread again), at once when typed while connected, and when it closes while connected; it uploads the
//   reply's files first;
// - otherwise the room, at each open of its socket after its own messages: each reply of a thread with no pane
//   open whose files are up and that the server has not refused (those wait for their pane: for the upload,
//   or for Retry or Cancel).
// The owner can change during a connection (a pane opened after the room sent, closed before the echo), so
// whoever writes a reply first takes its turn here: on one connection of the room's socket it is written once,
// whoever holds it. The server stores a (sender, chat, client_id) once anyway; this keeps it off the wire too.

/** Per chat, the roots with a pane open (a count: one thread may be drawn twice while a pane is swapped). */
const panes = new Map<string, Map<number, number>>();
/** Per chat, the replies written on the room socket's current connection. */
const written = new Map<string, Set<string>>();

export const threadSends = {
  /** A pane opened on the thread under `rootId`: it sends that thread's replies until the returned function. */
  openPane(chatId: string, rootId: number): () => void {
    const roots = panes.get(chatId) ?? new Map<number, number>();
    panes.set(chatId, roots);
    roots.set(rootId, (roots.get(rootId) ?? 0) + 1);
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      const left = (roots.get(rootId) ?? 1) - 1;
      if (left > 0) roots.set(rootId, left);
      else roots.delete(rootId);
      if (roots.size === 0 && panes.get(chatId) === roots) panes.delete(chatId);
    };
  },

  paneOpen: (chatId: string, rootId: number): boolean => (panes.get(chatId)?.get(rootId) ?? 0) > 0,

  /** Takes a reply's turn on this connection: false when it was written on it already. */
  take(chatId: string, clientId: string): boolean {
    const set = written.get(chatId) ?? new Set<string>();
    written.set(chatId, set);
    if (set.has(clientId)) return false;
    set.add(clientId);
    return true;
  },

  /** The reply may be written again on this connection: the server refused it, or the write failed. */
  release(chatId: string, clientId: string): void {
    written.get(chatId)?.delete(clientId);
  },

  /** The room's socket opened or dropped: nothing has been written on its new connection. */
  newConnection(chatId: string): void {
    written.delete(chatId);
  },
};

/** The waiting thread replies the room sends at its open: those of threads with no pane open, ready to go. */
export const roomThreadReplies = (
  entries: readonly OutboxEntry[],
  paneOpen: (rootId: number) => boolean,
): OutboxEntry[] =>
  entries.filter((e) => e.thread_root != null && !e.error && filesReady(e) && !paneOpen(e.thread_root));
