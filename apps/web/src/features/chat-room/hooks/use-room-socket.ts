import { type ClientFrame, type ServerFrame, SOCKET_CLIENT_TEXT } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useEffect, useRef } from 'react';
import {
  fetchSocketTicket,
  ReconnectingSocket,
  type SocketStatus,
  socketUrl,
} from '../../../lib/realtime/chat-socket';
import { chatQueryKeys, enterChatRoom } from '../../../lib/realtime/chat-socket-shared';
import { lazyFrameSchema } from '../../../lib/realtime/lazy-frame-schema';
import { onRetryChance } from '../../../lib/realtime/retry-chance';
import { roomChannel } from '../../../lib/realtime/room-channel';
import { afterFirstScreen } from '../../../lib/ui/first-screen';

// The room's one socket (SPEC §4 "Chat channel connection"): opened on entering (or once the browser is online),
// closed when the browser goes offline, retried by itself until it opens again (lib/realtime/backoff.ts) and at
// once when the network or the tab comes back, closed on leaving. What a frame, an open or a drop means is the
// caller's; the chat's other views (a thread's pane) hear them too, after the room (lib/realtime/room-channel.ts).

/** The frame schema, loaded beside the first ticket: the socket opens only after it is, so no frame comes sooner. */
const frames = lazyFrameSchema<ServerFrame>(
  async () => (await import('../../../lib/realtime/frame-schemas')).serverFrameSchema,
);

export type RoomSocket = ReconnectingSocket<ServerFrame, ClientFrame>;

export interface RoomSocketEvents {
  onFrame: (frame: ServerFrame) => void;
  /** Each successful open, first or after a reconnect. */
  onOpen: (socket: RoomSocket) => void;
  /** Every change of the connection's state. */
  onStatus: (status: SocketStatus) => void;
  /** When the next attempt is due (epoch ms) while one waits, else null. */
  onRetryAt: (at: number | null) => void;
  /** Leaving the room while the socket is still open: the last frames go out here. */
  onLeave: (socket: RoomSocket) => void;
  /** An error text for the banner, or null when it clears. */
  onError: (message: string | null) => void;
}

/** Opens the socket of `chatId` into `socketRef` for as long as the room is on screen. */
export function useRoomSocket(
  chatId: string,
  socketRef: RefObject<RoomSocket | null>,
  events: RoomSocketEvents,
): void {
  const queryClient = useQueryClient();
  // Read when an event comes, so the socket is not rebuilt when the handlers are.
  const on = useRef(events);
  on.current = events;

  useEffect(() => {
    const socket: RoomSocket = new ReconnectingSocket<ServerFrame, ClientFrame>({
      url: async () => {
        const [ticket] = await Promise.all([fetchSocketTicket(), frames.ready()]);
        return socketUrl(`/ws/chatroom/${encodeURIComponent(chatId)}/`, ticket);
      },
      schema: frames.schema,
      texts: {
        connectionError: SOCKET_CLIENT_TEXT.connectionError,
        invalidFormat: SOCKET_CLIENT_TEXT.invalidFormat,
        authFailed: SOCKET_CLIENT_TEXT.authFailed,
        notFound: SOCKET_CLIENT_TEXT.notFound,
      },
      onFrame: (frame) => {
        on.current.onFrame(frame);
        roomChannel.frame(chatId, frame);
      },
      onStatus: (next) => {
        on.current.onStatus(next);
        roomChannel.status(chatId, next);
      },
      onRetryAt: (at) => on.current.onRetryAt(at),
      onError: (message) => {
        on.current.onError(message);
        // Removed from the group (or the group deleted): the chat leaves this person's list.
        if (message === SOCKET_CLIENT_TEXT.notFound)
          void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
      },
      onOpen: () => {
        on.current.onOpen(socket);
        roomChannel.opened(chatId);
      },
    });
    socketRef.current = socket;
    const detach = roomChannel.attach(chatId, socket);
    // Its ticket and frame schema wait for the room's first drawing (lib/ui/first-screen.ts); a send meanwhile waits
    // in the outbox as it would for any connection under way. Opened offline, it waits for the network.
    const cancelStart = afterFirstScreen(() => {
      if (navigator.onLine) socket.start();
    });
    const leave = enterChatRoom(chatId);
    // The network gone, the socket is too (a browser may keep a dead one open for a while): sends wait in the
    // outbox from now on. Back online, or back in view, it tries at once and what waited goes out.
    const goOffline = () => socket.stop();
    window.addEventListener('offline', goOffline);
    const stopListening = onRetryChance(() => {
      if (!navigator.onLine) return;
      socket.start();
      socket.reconnectNow();
    });
    return () => {
      cancelStart();
      window.removeEventListener('offline', goOffline);
      stopListening();
      leave();
      on.current.onLeave(socket);
      socketRef.current = null;
      detach();
      socket.stop();
    };
  }, [chatId, queryClient, socketRef]);
}
