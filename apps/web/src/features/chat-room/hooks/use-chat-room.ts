import {
  type ChatDetail,
  DELETED_MESSAGE_TEXT,
  type Message,
  memberNameOf,
  type ServerFrame,
} from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';
import { pinEdited, pinsChanged } from '../api/pins';
import { roomEnteredAt } from '../api/room-queries';
import { reactionAdded } from '../lib/message-changes';
import { usePendingMessages } from './use-pending-messages';
import { useReading } from './use-reading';
import { useRoomAcks } from './use-room-acks';
import { useRoomMessages } from './use-room-messages';
import { type RoomSocket, useRoomSocket } from './use-room-socket';
import { useRoomTyping } from './use-room-typing';
import { useRoomUploads } from './use-room-uploads';

// One chat room's live state (SPEC §4): the socket, the message list with pending sends, typing, presence
// and read/delivery reports. Everything the server pushes lands here; the screen only draws it. Each part is
// its own hook; this one routes the socket's frames and moments (open, drop, leave) to them.

/** `watching`: the reader previews a public group they have not joined, and reports no reads. */
export function useChatRoom(chatId: string, meId: number, latest: Message[] | undefined, watching = false) {
  const queryClient = useQueryClient();
  const socketRef = useRef<RoomSocket | null>(null);
  // Opened offline, the socket waits for the network without a try (use-room-socket.ts): not connecting.
  const [status, setStatus] = useState<SocketStatus>(() =>
    navigator.onLine ? 'connecting' : 'disconnected',
  );
  /** When the socket's next attempt is due while it waits to reconnect (a countdown), else null. */
  const [retryAt, setRetryAt] = useState<number | null>(null);
  /** Whether the socket has opened before: each later open follows a drop. */
  const opened = useRef(false);
  const [error, setError] = useState<string | null>(null);
  const [inChatCount, setInChatCount] = useState(0);
  const [inChatUserIds, setInChatUserIds] = useState<number[]>([]);
  /**
   * What screen readers hear of others' edits, deletions and reactions (new messages have their own live
   * region).
   */
  const [changeNote, setChangeNote] = useState('');
  /** A note the same as the last one differs by an invisible mark, so the live region speaks it again. */
  const announce = (note: string) => setChangeNote((last) => (last === note ? `${note}\u200b` : note));
  /** A member's name as the room shows it, from the chat's details. */
  const memberName = (userId: number) => {
    const chat = queryClient.getQueryData<ChatDetail>(chatQueryKeys.detail(chatId));
    const member = chat?.members.find((m) => m.id === userId);
    return member ? memberNameOf(member) : 'Someone';
  };
  // Arriving messages are reported read only while the chat is read (on screen, its window focused).
  const reading = useReading(chatId);

  const list = useRoomMessages(chatId, latest);
  const { dispatch } = list;
  const typing = useRoomTyping(socketRef);
  const pending = usePendingMessages({
    chatId,
    meId,
    socketRef,
    list,
    setError,
    stopTyping: typing.stopTyping,
  });
  const uploads = useRoomUploads(chatId, meId, dispatch, pending.sendUploaded, typing.stopTyping);
  const { abort: abortUpload } = uploads;
  const { cancel: cancelPending } = pending;
  /** Drops a pending message (and its upload) before it is stored. */
  const cancel = useCallback(
    (clientId: string) => {
      abortUpload(clientId);
      cancelPending(clientId);
    },
    [abortUpload, cancelPending],
  );
  const acks = useRoomAcks(socketRef, list.state.messages, meId, status, reading, watching);

  const onFrame = (frame: ServerFrame) => {
    switch (frame.type) {
      case 'chat_message':
        dispatch({ type: 'received', message: frame.message, client_id: frame.client_id });
        if (frame.message.sender !== null && frame.message.sender !== meId)
          typing.remove(frame.message.sender);
        // The list refetches only where it is shown (the two-pane layout's left pane); elsewhere it is marked stale.
        void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
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
      case 'message_updated':
        dispatch({ type: 'updated', message: frame.message, meId });
        pinEdited(queryClient, chatId, frame.message);
        if (frame.message.sender !== meId) announce(`${frame.message.sender_name} edited a message`);
        void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
        break;
      case 'message_deleted': {
        const gone = list.stateRef.current.messages.find((m) => m.id === frame.message_id);
        dispatch({ type: 'deleted', message_id: frame.message_id });
        if (gone && !gone.is_deleted && gone.sender !== meId) announce(DELETED_MESSAGE_TEXT);
        void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
        break;
      }
      case 'reactions_updated': {
        const had = list.stateRef.current.messages.find((m) => m.id === frame.message_id);
        dispatch({ type: 'reactions', message_id: frame.message_id, reactions: frame.reactions, meId });
        const added = had && reactionAdded(had.reactions, frame.reactions, meId);
        if (added) announce(`${memberName(added.user_id)} reacted ${added.emoji}`);
        break;
      }
      case 'pins_updated':
        pinsChanged(queryClient, chatId);
        break;
      case 'voice_played':
        dispatch({ type: 'voice_played', message_id: frame.message_id, file_id: frame.file_id });
        break;
      case 'poll_updated':
        dispatch({ type: 'poll', message_id: frame.message_id, poll: frame.poll });
        break;
      case 'chat_updated':
        // The frame is the same for every member: the reader's own mute is kept from what they had.
        queryClient.setQueryData<ChatDetail>(chatQueryKeys.detail(chatId), (old) =>
          old ? { ...frame.chat, muted: old.muted, muted_until: old.muted_until } : frame.chat,
        );
        break;
      case 'error':
        setError(frame.message);
        if (frame.client_id)
          dispatch({ type: 'pending_failed', client_id: frame.client_id, error: frame.message });
        break;
    }
  };

  /** Tries to connect at once, skipping the wait ('Try now'). */
  const reconnectNow = useCallback(() => socketRef.current?.reconnectNow(), []);

  useRoomSocket(chatId, socketRef, {
    onFrame,
    onStatus: (next) => {
      setStatus(next);
      if (next === 'connected') return;
      pending.onDown();
      typing.onDown();
      acks.onDown();
      // Who is in the room is known only while connected: nobody is shown there meanwhile.
      setInChatUserIds([]);
    },
    onRetryAt: setRetryAt,
    onError: setError,
    // After every open: fetch what arrived while away, then send what waits in the outbox (the sends the
    // server never echoed), then upload the files of those still waiting for them. The chat's detail is read
    // again after a drop (a rename, members who came or left), and when the room opened on the copy saved on
    // this device because the server was away.
    onOpen: (socket) => {
      const detail = queryClient.getQueryState(chatQueryKeys.detail(chatId));
      if (opened.current || !detail || detail.dataUpdatedAt < roomEnteredAt(chatId))
        void queryClient.refetchQueries(
          { queryKey: chatQueryKeys.detail(chatId), exact: true },
          { cancelRefetch: false },
        );
      // Pins changed while the socket was down are not told again.
      if (opened.current) pinsChanged(queryClient, chatId);
      opened.current = true;
      acks.onOpen();
      void list
        .catchUp()
        .then(() => (socketRef.current === socket ? pending.resend(socket) : undefined))
        .then(() => (socketRef.current === socket ? uploads.resume() : undefined));
    },
    onLeave: (socket) => {
      uploads.abortAll();
      acks.onLeave();
      typing.onLeave(socket);
    },
  });

  return {
    status,
    retryAt,
    reconnectNow,
    error,
    dismissError: () => setError(null),
    messages: list.state,
    dispatch,
    loadAround: list.loadAround,
    changeNote,
    inChatCount,
    inChatUserIds,
    typingUsers: typing.users,
    loadingOlder: list.loadingOlder,
    loadOlder: list.loadOlder,
    send: pending.send,
    sendFiles: uploads.sendFiles,
    retry: pending.retry,
    cancel,
    onInput: typing.onInput,
  };
}
