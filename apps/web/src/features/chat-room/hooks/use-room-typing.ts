import { TYPING_STOP_DELAY_MS } from '@parley/protocol';
import { type RefObject, useCallback, useEffect, useRef } from 'react';
import type { RoomSocket } from './use-room-socket';
import { useTypingUsers } from './use-typing-users';

// Typing both ways (SPEC §4 Typing): this user's typing=true/false as the composer changes, and who else is.

export function useRoomTyping(socketRef: RefObject<RoomSocket | null>) {
  const others = useTypingUsers();
  /** Whether the last typing frame this connection sent said true. */
  const typingSent = useRef(false);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const stopTyping = useCallback(() => {
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = null;
    if (!typingSent.current) return;
    typingSent.current = false;
    socketRef.current?.send({ type: 'typing', is_typing: false });
  }, [socketRef]);

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
    [socketRef, stopTyping],
  );

  useEffect(
    () => () => {
      if (typingTimer.current) clearTimeout(typingTimer.current);
    },
    [],
  );

  /** The connection dropped: nobody is known to be typing, and this user's typing=true died with it. */
  const onDown = useCallback(() => {
    typingSent.current = false;
    others.clear();
  }, [others.clear]);

  /** Leaving while typing: the others' indicator must not linger until it expires. */
  const onLeave = useCallback((socket: RoomSocket) => {
    if (typingSent.current) socket.send({ type: 'typing', is_typing: false });
  }, []);

  return {
    users: others.users,
    update: others.update,
    remove: others.remove,
    stopTyping,
    onInput,
    onDown,
    onLeave,
  };
}
