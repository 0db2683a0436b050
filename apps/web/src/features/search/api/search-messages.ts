import type { MessageSearchResponse } from '@parley/protocol';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

const PAGE_SIZE = 20;
const STALE_MS = 15_000;

export interface MessageSearchParams {
  q: string;
  /** Only this chat's messages (the room's scoped search). */
  chatId?: string | null;
  cursor?: string | null;
}

/**
 * GET /api/search/messages/?q=&chat_id=&cursor=&limit= → {results, next_cursor}: the messages the person may see
 * now, newest first, each with its chat and the [start, end) ranges of the matched words in its body.
 */
export function searchMessages(
  { q, chatId, cursor }: MessageSearchParams,
  signal?: AbortSignal,
): Promise<MessageSearchResponse> {
  const params = new URLSearchParams({ q, limit: String(PAGE_SIZE) });
  if (chatId) params.set('chat_id', chatId);
  if (cursor) params.set('cursor', cursor);
  return api.get<MessageSearchResponse>(`/search/messages/?${params}`, { signal });
}

/** Pages of results for `q` (debounced by the caller); `fetchNextPage` follows `next_cursor` ('More results'). */
export const useMessageSearch = (q: string, chatId: string | null) =>
  useInfiniteQuery({
    queryKey: ['search', 'messages', q.trim(), chatId ?? null] as const,
    queryFn: ({ pageParam, signal }) => searchMessages({ q: q.trim(), chatId, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor,
    enabled: q.trim().length > 0,
    staleTime: STALE_MS,
    placeholderData: keepPreviousData,
  });
