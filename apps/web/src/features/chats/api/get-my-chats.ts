import type { ChatListItem } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatQueryKeys } from '../../../lib/chat-socket-shared';

// SPEC §9: the chat list is fresh for 1 minute, kept 5 minutes, and not refetched on window focus.
const CHAT_LIST_STALE_MS = 60_000;
const CHAT_LIST_GC_MS = 5 * 60_000;

/** GET /api/chats/my/ → {chats}, newest activity first; a missing field reads as no chats. */
export async function getMyChats(): Promise<ChatListItem[]> {
  const body = await api.get<{ chats?: ChatListItem[] } | null>('/chats/my/');
  return Array.isArray(body?.chats) ? body.chats : [];
}

export const useMyChats = () =>
  useQuery({
    queryKey: chatQueryKeys.list(),
    queryFn: getMyChats,
    staleTime: CHAT_LIST_STALE_MS,
    gcTime: CHAT_LIST_GC_MS,
    refetchOnWindowFocus: false,
  });
