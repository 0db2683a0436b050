import type { ChatListItem } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { matchPath, useNavigate } from 'react-router';
import { chatListQueryOptions } from '../lib/queries/chat-list-query';
import { chatQueryKeys } from '../lib/realtime/chat-socket-shared';
import { chatPath } from '../lib/text/chat-path';

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

/** The chat the address bar shows, private or group, or null. */
export function chatInAddress(pathname: string): string | null {
  return (
    (matchPath('/chats/:chatId/*', pathname) ?? matchPath('/groups/:chatId/*', pathname))?.params.chatId ??
    null
  );
}

/**
 * Alt+↑ / Alt+↓ anywhere under the chats frame opens the previous / next chat of the list. The chat moved from is
 * read from the address when the key is pressed: a second press right after the first starts from the chat the
 * first opened, even before the screen has drawn it.
 */
export function useChatHotkeys() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      void queryClient.ensureQueryData(chatListQueryOptions()).then(() => {
        const chats = queryClient.getQueryData<ChatListItem[]>(chatQueryKeys.list()) ?? [];
        const next = neighbourChat(chats, chatInAddress(window.location.pathname), step);
        if (next) void navigate(chatPath(next));
      });
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [navigate, queryClient]);
}
