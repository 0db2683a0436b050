import type { ChatListItem } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useMatch, useNavigate } from 'react-router';
import { chatListQueryOptions } from '../lib/chat-list-query';
import { chatPath } from '../lib/chat-path';
import { chatQueryKeys } from '../lib/chat-socket-shared';

/**
 * The chat that Alt+↑ / Alt+↓ moves to from `current` in the list's order: the previous or next one, none past
 * either end; from no open chat, the first (↓) or the last (↑).
 */
export function neighbourChat(
  chats: Pick<ChatListItem, 'chat_id' | 'is_private'>[],
  current: string | null,
  step: 1 | -1,
): Pick<ChatListItem, 'chat_id' | 'is_private'> | null {
  if (chats.length === 0) return null;
  const at = current === null ? -1 : chats.findIndex((c) => c.chat_id === current);
  if (at < 0) return step === 1 ? chats[0]! : chats[chats.length - 1]!;
  return chats[at + step] ?? null;
}

/** Alt+↑ / Alt+↓ anywhere under the chats frame opens the previous / next chat of the list. */
export function useChatHotkeys() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const privateRoom = useMatch('/chats/:chatId/*');
  const groupRoom = useMatch('/groups/:chatId/*');
  const current = (privateRoom ?? groupRoom)?.params.chatId ?? null;

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      void queryClient.ensureQueryData(chatListQueryOptions()).then(() => {
        const chats = queryClient.getQueryData<ChatListItem[]>(chatQueryKeys.list()) ?? [];
        const next = neighbourChat(chats, current, step);
        if (next) void navigate(chatPath(next));
      });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [current, navigate, queryClient]);
}
