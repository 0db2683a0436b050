import type { ClientFrame, ServerFrame } from '@parley/protocol';
import type { SendResult, SocketStatus } from './chat-socket';

// A chat's one room socket, shared with what shows that chat beside its room (a thread's pane): they hear its
// frames, its opens and its state, and send on it. The room opens and closes the socket; a chat keeps one socket
// however many of its views are on screen.

export interface RoomListener {
  onFrame?: (frame: ServerFrame) => void;
  /** The socket opened, first or again after a drop: what came meanwhile is to be fetched. */
  onOpen?: () => void;
  onStatus?: (status: SocketStatus) => void;
}

/** What a listener may use of the socket itself. */
export interface SharedSocket {
  readonly status: SocketStatus;
  send(frame: ClientFrame): SendResult;
}

const sockets = new Map<string, SharedSocket>();
const listeners = new Map<string, Set<RoomListener>>();

const each = (chatId: string, call: (listener: RoomListener) => void) => {
  for (const listener of listeners.get(chatId) ?? []) call(listener);
};

export const roomChannel = {
  /** The room's socket of `chatId`, from its start; the returned function lets it go. */
  attach(chatId: string, socket: SharedSocket): () => void {
    sockets.set(chatId, socket);
    return () => {
      if (sockets.get(chatId) === socket) sockets.delete(chatId);
    };
  },
  frame: (chatId: string, frame: ServerFrame) => each(chatId, (l) => l.onFrame?.(frame)),
  opened: (chatId: string) => each(chatId, (l) => l.onOpen?.()),
  status: (chatId: string, status: SocketStatus) => each(chatId, (l) => l.onStatus?.(status)),

  /** Hears the room of `chatId` (whenever its socket is open); the returned function stops. */
  listen(chatId: string, listener: RoomListener): () => void {
    const set = listeners.get(chatId) ?? new Set<RoomListener>();
    listeners.set(chatId, set);
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && listeners.get(chatId) === set) listeners.delete(chatId);
    };
  },

  /** The room socket's state now: 'disconnected' while no room of `chatId` is open. */
  statusOf: (chatId: string): SocketStatus => sockets.get(chatId)?.status ?? 'disconnected',

  /** Sends on the room's socket; 'not_connected' while there is none. */
  send: (chatId: string, frame: ClientFrame): SendResult =>
    sockets.get(chatId)?.send(frame) ?? 'not_connected',
};
