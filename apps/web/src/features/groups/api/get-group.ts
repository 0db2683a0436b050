import type { ChatDetail } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** GET /api/chats/{chat_id}/ → members (with roles), admin, description, avatar. Shares the room's cache entry. */
export const getGroup = (chatId: string): Promise<ChatDetail> =>
  api.get<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/`);

export const useGroup = (chatId: string) =>
  useQuery({ queryKey: chatQueryKeys.detail(chatId), queryFn: () => getGroup(chatId) });
