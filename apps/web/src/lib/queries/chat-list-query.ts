import type { ChatListItem } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../http/api-client';
import { chatQueryKeys } from '../realtime/chat-socket-shared';

// Shared, not the chats feature's: the chat list screen shows it and the search dialog filters it by name, and
// one feature never imports another.

// SPEC §9: the chat list is fresh for 1 minute, kept 5 minutes, and not refetched on window focus.
const CHAT_LIST_STALE_MS = 60_000;
const CHAT_LIST_GC_MS = 5 * 60_000;

/** GET /api/chats/my/ → {chats}, newest activity first; a missing field reads as no chats. */
export async function getMyChats(): Promise<ChatListItem[]> {
  const body = await api.get<{ chats?: ChatListItem[] } | null>('/chats/my/');
  return Array.isArray(body?.chats) ? body.chats : [];
}

export const chatListQueryOptions = () =>
  queryOptions({
    queryKey: chatQueryKeys.list(),
    queryFn: getMyChats,
    staleTime: CHAT_LIST_STALE_MS,
    gcTime: CHAT_LIST_GC_MS,
    refetchOnWindowFocus: false,
  });

export const useMyChats = (enabled = true) => useQuery({ ...chatListQueryOptions(), enabled });
