import type { ChatDetail } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** GET /api/chats/{chat_id}/ → the chat; a private chat lists the other person first. Shares the room's cache. */
export const getPrivateChat = (chatId: string): Promise<ChatDetail> =>
  api.get<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/`);

export const usePrivateChat = (chatId: string) =>
  useQuery({ queryKey: chatQueryKeys.detail(chatId), queryFn: () => getPrivateChat(chatId) });
