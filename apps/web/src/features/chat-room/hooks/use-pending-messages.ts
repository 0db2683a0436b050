import type { ReplyQuote } from '@parley/protocol';
import { type RefObject, useCallback } from 'react';
import { newClientId } from '../../../lib/chat-socket';
import { messageFrame, sendFailure } from '../lib/room-sends';
import type { RoomMessageList } from './use-room-messages';
import type { RoomSocket } from './use-room-socket';

// This user's sends until the server echoes them (SPEC §4): a message shows at once as pending, a refused one
// can be retried, and after a reconnect whatever was never echoed goes again with the same client_id (so one
// the server did store is not stored twice).

interface PendingDeps {
  socketRef: RefObject<RoomSocket | null>;
  list: Pick<RoomMessageList, 'stateRef' | 'dispatch'>;
  setError: (message: string) => void;
  /** A send ends this user's typing. */
  stopTyping: () => void;
}

export function usePendingMessages({ socketRef, list, setError, stopTyping }: PendingDeps) {
  const { stateRef, dispatch } = list;

  /**
   * Sends a message (answering `replyTo` when given); false (with the banner set) when it could not go out, so
   * the composer keeps the text.
   */
  const send = useCallback(
    (text: string, replyTo?: ReplyQuote): boolean => {
      const body = text.trim();
      if (!body) return false;
      stopTyping();
      const socket = socketRef.current;
      const client_id = newClientId();
      const result =
        socket?.status === 'connected'
          ? socket.send(messageFrame({ body, client_id, reply_to: replyTo }))
          : undefined;
      const failure = sendFailure(result);
      if (failure) {
        setError(failure.text);
        if (failure.reconnect) socket?.reconnectNow();
        return false;
      }
      dispatch({
        type: 'pending',
        pending: {
          client_id,
          body,
          timestamp: new Date().toISOString(),
          status: 'sending',
          ...(replyTo ? { reply_to: replyTo } : {}),
        },
      });
      return true;
    },
    [socketRef, dispatch, setError, stopTyping],
  );

  /** Sends a pending message whose files are up; offline, it waits for the reconnect's resend. */
  const sendUploaded = useCallback(
    (pending: { body: string; client_id: string; file_ids: number[] }) => {
      const socket = socketRef.current;
      const failure = sendFailure(socket?.send(messageFrame(pending)));
      if (!failure) return;
      setError(failure.text);
      if (failure.reconnect) socket?.reconnectNow();
    },
    [socketRef, setError],
  );

  /** Sends a refused message again with its client_id; while offline it waits for the reconnect resend. */
  const retry = useCallback(
    (clientId: string) => {
      const pending = stateRef.current.pending.find((p) => p.client_id === clientId);
      if (!pending || pending.status === 'uploading') return;
      dispatch({ type: 'pending_retry', client_id: clientId });
      socketRef.current?.send(messageFrame(pending));
    },
    [socketRef, stateRef, dispatch],
  );

  /** After a reconnect's catch-up: every send still waiting for its echo goes again. */
  const resend = useCallback(
    (socket: RoomSocket) => {
      for (const p of stateRef.current.pending) {
        if (p.status === 'sending') socket.send(messageFrame(p));
      }
    },
    [stateRef],
  );

  return { send, sendUploaded, retry, resend };
}
