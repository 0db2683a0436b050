import type { ReplyQuote } from '@parley/protocol';
import { type RefObject, useCallback, useEffect, useMemo, useRef } from 'react';
import { nextSeq, type OutboxEntry, outboxFor } from '../../../lib/offline/outbox';
import { newClientId } from '../../../lib/realtime/chat-socket';
import type { PendingMessage } from '../lib/room-messages';
import { flushFrames, messageFrame, outboxChanges, pendingFromOutbox, sendFailure } from '../lib/room-sends';
import type { RoomMessageList } from './use-room-messages';
import type { RoomSocket } from './use-room-socket';

// This user's sends until the server echoes them (SPEC §4): a message shows at once as pending and is
// kept in the outbox (IndexedDB) until its echo. While the socket is down it waits there — through a reload or
// a closed tab — and every open sends what waits, in order, with the same client_ids (so one the server did
// store is not stored twice). A refused one can be retried; any waiting one can be cancelled.

interface PendingDeps {
  chatId: string;
  meId: number;
  socketRef: RefObject<RoomSocket | null>;
  list: Pick<RoomMessageList, 'state' | 'stateRef' | 'dispatch'>;
  setError: (message: string) => void;
  /** A send ends this user's typing. */
  stopTyping: () => void;
}

export type Sendable = Pick<PendingMessage, 'body' | 'client_id' | 'file_ids' | 'reply_to'>;

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
      const failure = sendFailure(connected ? socket.send(messageFrame(message)) : undefined);
      if (!failure) return;
      setError(failure.text);
      if (failure.reconnect) socket?.reconnectNow();
    },
    [socketRef, setError],
  );

  /**
   * Sends a message (answering `replyTo` when given). Offline or reconnecting it waits in the outbox, pending,
   * and the banner says the room is not connected; true whenever the text was not blank.
   */
  const send = useCallback(
    (text: string, replyTo?: ReplyQuote): boolean => {
      const body = text.trim();
      if (!body) return false;
      stopTyping();
      const entry: OutboxEntry = {
        client_id: newClientId(),
        chat_id: chatId,
        body,
        timestamp: new Date().toISOString(),
        seq: nextSeq(),
        ...(replyTo ? { reply_to: replyTo } : {}),
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
   * from then on new sends go at once.
   */
  const resend = useCallback(
    async (socket: RoomSocket) => {
      await restored.current;
      if (socketRef.current !== socket || socket.status !== 'connected') return;
      for (const frame of flushFrames(stateRef.current.pending)) socket.send(frame);
      flushed.current = true;
    },
    [socketRef, stateRef],
  );

  /** The socket dropped: new sends wait for the next open. */
  const onDown = useCallback(() => {
    flushed.current = false;
  }, []);

  return { send, sendUploaded, retry, cancel, resend, onDown };
}
