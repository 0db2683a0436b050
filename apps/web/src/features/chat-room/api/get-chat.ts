import type { ChatDetail } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatQueryKeys } from '../../../lib/chat-socket-shared';

/** GET /api/chats/{chat_id}/ → the chat; a private chat lists the other party first. 404 for non-members. */
export const getChat = (chatId: string): Promise<ChatDetail> =>
  api.get<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/`);

export const useChat = (chatId: string) =>
  useQuery({
    queryKey: chatQueryKeys.detail(chatId),
    queryFn: () => getChat(chatId),
    refetchOnWindowFocus: false,
  });
