import {
  type ClientFrame,
  type Message,
  type ServerFrame,
  SOCKET_CLIENT_TEXT,
  TYPING_STOP_DELAY_MS,
} from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { type AckBatcher, createAckBatcher } from '../../../lib/ack-batcher';
import {
  fetchSocketTicket,
  newClientId,
  ReconnectingSocket,
  type SocketStatus,
  socketUrl,
} from '../../../lib/chat-socket';
import { chatQueryKeys, enterChatRoom } from '../../../lib/chat-socket-shared';
import { getMessages, getMessagesAfter } from '../api/get-messages';
import { uploadAttachments, uploadErrorText } from '../api/upload-attachments';
import { guessFileType } from '../lib/attachment-files';
import {
  initialRoomMessages,
  lastKnownId,
  PAGE_SIZE,
  roomReducer,
  undeliveredFromOthers,
  unreadFromOthers,
} from '../lib/room-messages';
import { useDocumentVisible } from './use-document-visible';
import { useTypingUsers } from './use-typing-users';

// One chat room's live state (SPEC §4): the socket, the message list with pending sends, typing, presence
// and read/delivery reports. Everything the server pushes lands here; the screen only draws it.

export const NOT_CONNECTED_TEXT = 'Not connected to chat. Trying to reconnect...';
export const SEND_FAILED_TEXT = 'Failed to send message. Please check your connection.';

type RoomSocket = ReconnectingSocket<ServerFrame, ClientFrame>;

/** A pending message's frame: its text and, when it carries files, their ids (the body may then be empty). */
const messageFrame = (p: { body: string; client_id: string; file_ids?: number[] }): ClientFrame =>
  p.file_ids?.length
    ? { type: 'chat_message', body: p.body, client_id: p.client_id, file_ids: p.file_ids }
    : { type: 'chat_message', body: p.body, client_id: p.client_id };

export function useChatRoom(chatId: string, meId: number, latest: Message[] | undefined) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(roomReducer, initialRoomMessages);
  const [status, setStatus] = useState<SocketStatus>('connecting');
  const [error, setError] = useState<string | null>(null);
  const [inChatCount, setInChatCount] = useState(0);
  const [inChatUserIds, setInChatUserIds] = useState<number[]>([]);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const typing = useTypingUsers();
  const visible = useDocumentVisible();

  const socketRef = useRef<RoomSocket | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  /**
   * Ids queued as read / delivered on the current connection (cleared on every open, so a reconnect reports
   * again whatever a dropped batch lost). Reading counts as delivered: the server's read moves both marks.
   */
  const reported = useRef({ read: new Set<number>(), delivered: new Set<number>() });
  /** This room's coalesced acknowledgements, one batcher per frame type; null while no socket. */
  const acks = useRef<{ read: AckBatcher; delivered: AckBatcher } | null>(null);
  const typingSent = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const loadingOlderRef = useRef(false);
  /** Uploads under way; leaving the room cancels them. */
  const uploads = useRef(new Set<AbortController>());

  // The newest page from the query cache seeds the list (and refills it after 'Try Again').
  useEffect(() => {
    if (latest) dispatch({ type: 'page', messages: latest, position: 'latest' });
  }, [latest]);

  useEffect(() => {
    const resendPending = (socket: RoomSocket) => {
      for (const p of stateRef.current.pending) {
        if (p.status === 'sending') socket.send(messageFrame(p));
      }
    };

    // After every open: fetch what arrived while away, then resend sends the server never echoed (same
    // client_id, so one it did store is not stored twice).
    const catchUp = async (socket: RoomSocket) => {
      const last = lastKnownId(stateRef.current);
      try {
        const missed = last === null ? await getMessages(chatId) : await getMessagesAfter(chatId, last);
        dispatch({ type: 'page', messages: missed, position: last === null ? 'latest' : 'newer' });
      } catch {
        // The list stays as it is; the next reconnect tries again.
      }
      if (socketRef.current === socket) resendPending(socket);
    };

    const onFrame = (frame: ServerFrame) => {
      switch (frame.type) {
        case 'chat_message':
          dispatch({ type: 'received', message: frame.message, client_id: frame.client_id });
          if (frame.message.sender !== null && frame.message.sender !== meId)
            typing.remove(frame.message.sender);
          void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list(), refetchType: 'none' });
          break;
        case 'typing':
          if (frame.user_id !== meId)
            typing.update({ user_id: frame.user_id, username: frame.username }, frame.is_typing);
          break;
        case 'in_chat_count':
          setInChatCount(frame.count);
          break;
        case 'in_chat_users_update':
          setInChatUserIds(frame.user_ids);
          break;
        case 'messages_read':
          dispatch({ type: 'read', ids: frame.message_ids });
          break;
        case 'messages_delivered':
          dispatch({ type: 'delivered', ids: frame.message_ids });
          break;
        case 'chat_updated':
          queryClient.setQueryData(chatQueryKeys.detail(chatId), frame.chat);
          break;
        case 'error':
          setError(frame.message);
          if (frame.client_id)
            dispatch({ type: 'pending_failed', client_id: frame.client_id, error: frame.message });
          break;
      }
    };

    // A failed send is not retried: the socket is gone, and the next open reports again after catch-up.
    const roomAcks = {
      read: createAckBatcher({
        send: (ids) => void socket.send({ type: 'read_messages', message_ids: ids }),
      }),
      delivered: createAckBatcher({
        send: (ids) => void socket.send({ type: 'messages_delivered', message_ids: ids }),
      }),
    };
    const socket: RoomSocket = new ReconnectingSocket<ServerFrame, ClientFrame>({
      url: async () => socketUrl(`/ws/chatroom/${encodeURIComponent(chatId)}/`, await fetchSocketTicket()),
      texts: {
        connectionError: SOCKET_CLIENT_TEXT.connectionError,
        invalidFormat: SOCKET_CLIENT_TEXT.invalidFormat,
        authFailed: SOCKET_CLIENT_TEXT.authFailed,
        notFound: SOCKET_CLIENT_TEXT.notFound,
      },
      onFrame,
      onStatus: (next) => {
        setStatus(next);
        if (next !== 'connected') {
          typingSent.current = false;
          typing.clear();
          // Queued acks cannot go out; the next open clears `reported` and reports them again.
          roomAcks.read.drop();
          roomAcks.delivered.drop();
        }
      },
      onError: (message) => {
        setError(message);
        // Removed from the group (or the group deleted): the chat leaves this person's list.
        if (message === SOCKET_CLIENT_TEXT.notFound)
          void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
      },
      onOpen: () => {
        reported.current.read.clear();
        reported.current.delivered.clear();
        void catchUp(socket);
      },
    });
    acks.current = roomAcks;
    socketRef.current = socket;
    socket.start();
    const leave = enterChatRoom(chatId);
    const retryNow = () => socket.reconnectNow();
    window.addEventListener('online', retryNow);
    return () => {
      window.removeEventListener('online', retryNow);
      leave();
      for (const upload of uploads.current) upload.abort();
      uploads.current.clear();
      // Leaving: whatever is queued goes out now while the socket is still open.
      roomAcks.read.stop();
      roomAcks.delivered.stop();
      acks.current = null;
      if (typingSent.current) socket.send({ type: 'typing', is_typing: false });
      socketRef.current = null;
      socket.stop();
    };
  }, [chatId, meId, queryClient, typing.update, typing.remove, typing.clear]);

  // Coming back to the tab is a good moment to retry a connection that gave up or is waiting to retry.
  useEffect(() => {
    if (visible) socketRef.current?.reconnectNow();
  }, [visible]);

  // Others' messages this client got are reported read while the page is on screen (which marks them
  // delivered too), and only delivered while it is hidden; becoming visible reads what is still unread.
  // Both go through the batchers, so a busy room costs one frame per type per window, not two per message.
  useEffect(() => {
    const roomAcks = acks.current;
    if (!roomAcks || status !== 'connected') return;
    const { read, delivered } = reported.current;
    if (visible) {
      const ids = unreadFromOthers(state.messages, meId, read);
      for (const id of ids) {
        read.add(id);
        delivered.add(id);
      }
      roomAcks.read.add(ids);
    } else {
      const ids = undeliveredFromOthers(state.messages, meId, delivered);
      for (const id of ids) delivered.add(id);
      roomAcks.delivered.add(ids);
    }
  }, [state.messages, status, visible, meId]);

  const stopTyping = useCallback(() => {
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = null;
    if (!typingSent.current) return;
    typingSent.current = false;
    socketRef.current?.send({ type: 'typing', is_typing: false });
  }, []);

  /** The composer's text changed: typing=true while there is text, false after 2 s idle or when cleared. */
  const onInput = useCallback(
    (text: string) => {
      const socket = socketRef.current;
      if (!text.trim()) return stopTyping();
      if (socket?.status !== 'connected') return;
      if (!typingSent.current && socket.send({ type: 'typing', is_typing: true }) === 'sent') {
        typingSent.current = true;
      }
      if (typingTimer.current) clearTimeout(typingTimer.current);
      typingTimer.current = setTimeout(stopTyping, TYPING_STOP_DELAY_MS);
    },
    [stopTyping],
  );

  useEffect(
    () => () => {
      if (typingTimer.current) clearTimeout(typingTimer.current);
    },
    [],
  );

  /** Sends a message; false (with the banner set) when it could not go out, so the composer keeps the text. */
  const send = useCallback(
    (text: string): boolean => {
      const body = text.trim();
      if (!body) return false;
      stopTyping();
      const socket = socketRef.current;
      if (socket?.status !== 'connected') {
        setError(NOT_CONNECTED_TEXT);
        socket?.reconnectNow();
        return false;
      }
      const client_id = newClientId();
      const result = socket.send({ type: 'chat_message', body, client_id });
      if (result === 'not_connected') {
        setError(NOT_CONNECTED_TEXT);
        socket.reconnectNow();
        return false;
      }
      if (result === 'failed') {
        setError(SEND_FAILED_TEXT);
        return false;
      }
      dispatch({
        type: 'pending',
        pending: { client_id, body, timestamp: new Date().toISOString(), status: 'sending' },
      });
      return true;
    },
    [stopTyping],
  );

  /**
   * Uploads files (the composer checked type and size) and then sends them as one message. The pending message
   * shows the upload's progress; a refusal (type, size) is a toast and sends nothing. Sent while offline, the
   * message waits for the reconnect's resend like any other.
   */
  const sendFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return;
      const client_id = newClientId();
      dispatch({
        type: 'pending',
        pending: {
          client_id,
          body: '',
          timestamp: new Date().toISOString(),
          status: 'uploading',
          progress: 0,
          uploads: files.map((f) => ({ name: f.name, size: f.size, type: guessFileType(f) })),
        },
      });
      const controller = new AbortController();
      uploads.current.add(controller);
      let shown = 0;
      let fileIds: number[];
      try {
        const stored = await uploadAttachments(chatId, files, {
          signal: controller.signal,
          // Whole percents only: every update rebuilds the rows.
          onProgress: (fraction) => {
            const percent = Math.floor(fraction * 100);
            if (percent === shown) return;
            shown = percent;
            dispatch({ type: 'pending_update', client_id, patch: { progress: percent / 100 } });
          },
        });
        fileIds = stored.map((f) => f.id);
      } catch (e) {
        if (controller.signal.aborted) return;
        dispatch({ type: 'pending_remove', client_id });
        toast.error(uploadErrorText(e));
        return;
      } finally {
        uploads.current.delete(controller);
      }
      const pending = { body: '', client_id, file_ids: fileIds };
      dispatch({
        type: 'pending_update',
        client_id,
        patch: { status: 'sending', progress: 1, file_ids: fileIds },
      });
      const socket = socketRef.current;
      const result = socket?.send(messageFrame(pending));
      if (result === 'failed') setError(SEND_FAILED_TEXT);
      else if (result !== 'sent') {
        setError(NOT_CONNECTED_TEXT);
        socket?.reconnectNow();
      }
    },
    [chatId],
  );

  /** Sends a refused message again with its client_id; while offline it waits for the reconnect resend. */
  const retry = useCallback((clientId: string) => {
    const pending = stateRef.current.pending.find((p) => p.client_id === clientId);
    if (!pending || pending.status === 'uploading') return;
    dispatch({ type: 'pending_retry', client_id: clientId });
    socketRef.current?.send(messageFrame(pending));
  }, []);

  const loadOlder = useCallback(async () => {
    const { messages, hasOlder } = stateRef.current;
    if (!hasOlder || loadingOlderRef.current || messages.length === 0) return;
    loadingOlderRef.current = true;
    setLoadingOlder(true);
    try {
      const older = await getMessages(chatId, { before: messages[0]!.id, limit: PAGE_SIZE });
      dispatch({ type: 'page', messages: older, position: 'older' });
    } catch {
      // Scrolling to the top again retries.
    } finally {
      loadingOlderRef.current = false;
      setLoadingOlder(false);
    }
  }, [chatId]);

  return {
    status,
    error,
    dismissError: () => setError(null),
    messages: state,
    inChatCount,
    inChatUserIds,
    typingUsers: typing.users,
    loadingOlder,
    loadOlder,
    send,
    sendFiles,
    retry,
    onInput,
  };
}
