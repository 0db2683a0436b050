import { useCallback, useEffect, useRef, useState } from 'react';
import { t } from '../../../lib/i18n/i18n';

export interface TypingUser {
  user_id: number;
  username: string;
}

/** A typing=true whose typing=false never came (the sender's tab died) is dropped after this long. */
const TYPING_EXPIRY_MS = 6000;

/** Who is typing in the room, added and removed by user_id (SPEC §4 Typing). */
export function useTypingUsers() {
  const [users, setUsers] = useState<TypingUser[]>([]);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const remove = useCallback((userId: number) => {
    const timer = timers.current.get(userId);
    if (timer) clearTimeout(timer);
    timers.current.delete(userId);
    setUsers((list) =>
      list.some((u) => u.user_id === userId) ? list.filter((u) => u.user_id !== userId) : list,
    );
  }, []);

  const update = useCallback(
    (user: TypingUser, isTyping: boolean) => {
      if (!isTyping) return remove(user.user_id);
      const timer = timers.current.get(user.user_id);
      if (timer) clearTimeout(timer);
      timers.current.set(
        user.user_id,
        setTimeout(() => remove(user.user_id), TYPING_EXPIRY_MS),
      );
      setUsers((list) => (list.some((u) => u.user_id === user.user_id) ? list : [...list, user]));
    },
    [remove],
  );

  const clear = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer);
    timers.current.clear();
    setUsers([]);
  }, []);

  useEffect(() => clear, [clear]);

  return { users, update, remove, clear };
}

/** 'X is typing...', 'X and Y are typing...', or 'Several people are typing...'. */
export function typingText(users: TypingUser[]): string | null {
  if (users.length === 0) return null;
  if (users.length === 1) return t('room.typing.one', { name: users[0]!.username });
  if (users.length === 2)
    return t('room.typing.two', { name: users[0]!.username, other: users[1]!.username });
  return t('room.typing.many');
}
