import type { Message } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatQueryKeys } from '../../../lib/chat-socket-shared';
import { PAGE_SIZE } from '../lib/room-messages';

export interface MessagesPage {
  before?: number;
  after?: number;
  limit?: number;
}

/**
 * GET /api/chats/{chat_id}/messages/ → messages ascending: the newest page by default, `before` an older
 * page, `after` what came after an id (catch-up). Anything but an array reads as no messages (SPEC §7).
 */
export async function getMessages(chatId: string, page: MessagesPage = {}): Promise<Message[]> {
  const params = new URLSearchParams({ limit: String(page.limit ?? PAGE_SIZE) });
  if (page.before !== undefined) params.set('before', String(page.before));
  if (page.after !== undefined) params.set('after', String(page.after));
  const body = await api.get<unknown>(`/chats/${encodeURIComponent(chatId)}/messages/?${params}`);
  return Array.isArray(body) ? (body as Message[]) : [];
}

const CATCH_UP_LIMIT = 100;
const CATCH_UP_MAX_PAGES = 50;

/** Everything after `afterId`, page by page, so a long drop still loses nothing. */
export async function getMessagesAfter(chatId: string, afterId: number): Promise<Message[]> {
  const out: Message[] = [];
  let after = afterId;
  for (let i = 0; i < CATCH_UP_MAX_PAGES; i++) {
    const page = await getMessages(chatId, { after, limit: CATCH_UP_LIMIT });
    out.push(...page);
    if (page.length < CATCH_UP_LIMIT) break;
    after = page[page.length - 1]!.id;
  }
  return out;
}

/**
 * The newest page, through the query cache for its loading, error and retry states. The live list is the
 * room's own state afterwards, so this is never kept or refetched in the background.
 */
export const useLatestMessages = (chatId: string) =>
  useQuery({
    queryKey: chatQueryKeys.messages(chatId),
    queryFn: () => getMessages(chatId),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
