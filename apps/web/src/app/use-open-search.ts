import type { ChatDetail, ChatListItem } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useMatch } from 'react-router';
import { chatQueryKeys } from '../lib/realtime/chat-socket-shared';
import { openSearch } from '../lib/ui/search-dialogs';

/**
 * Opens the search; in a chat or group room it starts scoped to that chat, named from the room's or the chat
 * list's cache (the room has loaded one of them by then).
 */
export function useOpenSearch() {
  const queryClient = useQueryClient();
  const privateRoom = useMatch('/chats/:chatId');
  const groupRoom = useMatch('/groups/:chatId');
  const chatId = (privateRoom ?? groupRoom)?.params.chatId;
  return useCallback(() => {
    if (!chatId) return openSearch(null);
    const detail = queryClient.getQueryData<ChatDetail>(chatQueryKeys.detail(chatId));
    const listed = queryClient
      .getQueryData<ChatListItem[]>(chatQueryKeys.list())
      ?.find((c) => c.chat_id === chatId);
    openSearch({ chat_id: chatId, name: detail?.display_name || listed?.display_name || 'this chat' });
  }, [chatId, queryClient]);
}
