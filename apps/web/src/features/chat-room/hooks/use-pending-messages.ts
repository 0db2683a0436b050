import type { PollInput, ReplyQuote } from '@parley/protocol';
import { type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import { isThreadReply, nextSeq, type OutboxEntry, outboxFor } from '../../../lib/offline/outbox';
import { outboxChanges, outboxFrame, pendingFromOutbox } from '../../../lib/offline/outbox-sends';
import { roomThreadReplies, threadSends } from '../../../lib/offline/thread-sends';
import { newClientId } from '../../../lib/realtime/chat-socket';
import { roomChannel } from '../../../lib/realtime/room-channel';
import type { PendingMessage } from '../lib/room-messages';
import { flushFrames, sendFailure } from '../lib/room-sends';
import type { RoomMessageList } from './use-room-messages';
import type { RoomSocket } from './use-room-socket';

// This user's sends until the server echoes them (SPEC §4): a message shows at once as pending and is
// kept in the outbox (IndexedDB) until its echo. While the socket is down it waits there — through a reload or
// a closed tab — and every open sends what waits, in order, with the same client_ids (so one the server did
// store is not stored twice). A refused one can be retried; any waiting one can be cancelled.
// The outbox's thread replies are not in this list (their pane shows them): the room sends those of threads
// with no pane open at each open, and keeps their echo or refusal in the outbox (lib/offline/thread-sends.ts).

interface PendingDeps {
  chatId: string;
  meId: number;
  socketRef: RefObject<RoomSocket | null>;
  list: Pick<RoomMessageList, 'state' | 'stateRef' | 'dispatch'>;
  setError: (message: string) => void;
  /** A send ends this user's typing. */
  stopTyping: () => void;
}

export type Sendable = Pick<PendingMessage, 'body' | 'client_id' | 'file_ids' | 'reply_to' | 'poll'>;

export function usePendingMessages({ chatId, meId, socketRef, list, setError, stopTyping }: PendingDeps) {
  const { state, stateRef, dispatch } = list;
  const outbox = useMemo(() => outboxFor(meId), [meId]);
  /**
   * Whether what waited went out on the socket's current connection: until it has, a new send waits its turn
   * (the server handles a socket's frames in arrival order, so the order typed is the order stored).
   */
  const flushed = useRef(false);
  /** This chat's outbox as found when the room opened, read once; the first flush waits for it. */
  const restored = useRef<Promise<void>>(Promise.resolve());

  useEffect(() => {
    let live = true;
    restored.current = outbox
      .forChat(chatId)
      .then((entries) => {
        if (!live) return;
        const echoed = new Set(stateRef.current.messages.map((m) => m.client_id).filter(Boolean));
        for (const entry of entries) {
          if (echoed.has(entry.client_id)) void outbox.remove(entry.client_id);
          else dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
        }
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [chatId, outbox, stateRef, dispatch]);

  // The outbox follows the list: a pending message that left it (echoed, cancelled, refused upload) leaves the
  // outbox; one refused by the server keeps its error there, so it comes back with Retry after a reload.
  const previous = useRef<PendingMessage[]>(state.pending);
  useEffect(() => {
    const { remove, errors } = outboxChanges(previous.current, state.pending);
    previous.current = state.pending;
    for (const clientId of remove) void outbox.remove(clientId).catch(() => undefined);
    for (const { client_id, error } of errors) void outbox.patch(client_id, { error }).catch(() => undefined);
  }, [state.pending, outbox]);

  /** Writes a message on the socket when its turn has come; otherwise it waits for the next open's flush. */
  const transmit = useCallback(
    (message: Sendable) => {
      const socket = socketRef.current;
      const connected = socket?.status === 'connected';
      // Open, but what waited has not gone yet: this one goes right after it.
      if (connected && !flushed.current) return;
      const failure = sendFailure(connected ? socket.send(outboxFrame(message)) : undefined);
      if (!failure) return;
      setError(failure.text);
      if (failure.reconnect) socket?.reconnectNow();
    },
    [socketRef, setError],
  );

  /**
   * Sends a message (answering `replyTo` when given; a poll when `poll` is, its text may then be blank). Offline
   * or reconnecting it waits in the outbox, pending, and the banner says the room is not connected; true
   * whenever there was something to send.
   */
  const send = useCallback(
    (text: string, replyTo?: ReplyQuote, poll?: PollInput): boolean => {
      const body = text.trim();
      if (!body && !poll) return false;
      stopTyping();
      const entry: OutboxEntry = {
        client_id: newClientId(),
        chat_id: chatId,
        body,
        timestamp: new Date().toISOString(),
        seq: nextSeq(),
        ...(replyTo ? { reply_to: replyTo } : {}),
        ...(poll ? { poll } : {}),
      };
      // Without IndexedDB (a private window may refuse it) the message still goes; it only cannot outlive the tab.
      void outbox.add(entry).catch(() => undefined);
      dispatch({ type: 'pending', pending: pendingFromOutbox(entry) });
      transmit(entry);
      return true;
    },
    [chatId, outbox, dispatch, stopTyping, transmit],
  );

  /** Sends a pending message whose files are up; offline, it waits for the next open. */
  const sendUploaded = useCallback((pending: Sendable) => transmit(pending), [transmit]);

  /** Sends a refused message again with its client_id; offline it waits for the next open. */
  const retry = useCallback(
    (clientId: string) => {
      const pending = stateRef.current.pending.find((p) => p.client_id === clientId);
      if (!pending || pending.status === 'uploading') return;
      dispatch({ type: 'pending_retry', client_id: clientId });
      transmit(pending);
    },
    [stateRef, dispatch, transmit],
  );

  /** Drops a message that has not been stored yet: from the screen and the outbox. */
  const cancel = useCallback(
    (clientId: string) => {
      dispatch({ type: 'pending_remove', client_id: clientId });
      void outbox.remove(clientId).catch(() => undefined);
    },
    [dispatch, outbox],
  );

  /**
   * After an open's catch-up: everything waiting goes, in the order it was typed (the outbox read first), and
   * from then on new sends go at once. Then the replies waiting for threads with no pane open.
   */
  const resend = useCallback(
    async (socket: RoomSocket) => {
      await restored.current;
      if (socketRef.current !== socket || socket.status !== 'connected') return;
      for (const frame of flushFrames(stateRef.current.pending)) socket.send(frame);
      flushed.current = true;
      const waiting = await outbox.threadReplies(chatId).catch(() => []);
      if (socketRef.current !== socket || socket.status !== 'connected') return;
      // Whether a pane is open is asked now, not before the read: one opened meanwhile sends its own.
      for (const entry of roomThreadReplies(waiting, (root) => threadSends.paneOpen(chatId, root)))
        if (threadSends.take(chatId, entry.client_id)) socket.send(outboxFrame(entry));
    },
    [chatId, outbox, socketRef, stateRef],
  );

  // Each connection of the room's socket starts with nothing written; a thread reply's echo takes it out of
  // the outbox and a refusal stays with it (for Retry in its pane), whether or not a pane is open on it.
  useEffect(
    () =>
      roomChannel.listen(chatId, {
        onOpen: () => threadSends.newConnection(chatId),
        onStatus: (next) => {
          if (next !== 'connected') threadSends.newConnection(chatId);
        },
        onFrame: (frame) => {
          if (frame.type === 'chat_message') {
            const clientId = frame.client_id ?? frame.message.client_id;
            if (clientId && frame.message.thread_root != null && frame.message.sender === meId)
              void outbox.remove(clientId).catch(() => undefined);
          } else if (frame.type === 'error' && frame.client_id) {
            const { client_id, message } = frame;
            void outbox
              .get(client_id)
              .then((entry) =>
                entry && isThreadReply(entry) ? outbox.patch(client_id, { error: message }) : undefined,
              )
              .catch(() => undefined);
          }
        },
      }),
    [chatId, meId, outbox],
  );

  /** The socket dropped: new sends wait for the next open. */
  const onDown = useCallback(() => {
    flushed.current = false;
  }, []);

  return { send, sendUploaded, retry, cancel, resend, onDown };
}
