import type { Message } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { chatQueryKeys } from '../../../lib/chat-socket-shared';
import { CATCH_UP_LIMIT, catchUpMessages, pagesAfter } from '../lib/room-catch-up';
import { PAGE_SIZE } from '../lib/room-messages';

export interface MessagesPage {
  before?: number;
  after?: number;
  /** A page with this message in the middle (to show a quoted or first unread message further back). */
  around?: number;
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
  if (page.around !== undefined) params.set('around', String(page.around));
  const body = await api.get<unknown>(`/chats/${encodeURIComponent(chatId)}/messages/?${params}`);
  return Array.isArray(body) ? (body as Message[]).map(withEssentials) : [];
}

/**
 * A history entry with issue 10's fields, defaulted when an answer lacks them (an older server during a
 * rolling upgrade), so the room never reads a missing `reactions` or `mentions`.
 */
function withEssentials(m: Message): Message {
  if (m.reactions && m.mentions && m.reply_to !== undefined && m.edited_at !== undefined) return m;
  return {
    ...m,
    edited_at: m.edited_at ?? null,
    is_deleted: m.is_deleted ?? false,
    reply_to: m.reply_to ?? null,
    reactions: m.reactions ?? [],
    mentions: m.mentions ?? [],
  };
}

/**
 * Everything after `afterId`, page by page, so a long drop still loses nothing; with `untilId`, it stops once
 * that message has come.
 */
export const getMessagesAfter = (chatId: string, afterId: number, untilId?: number): Promise<Message[]> =>
  pagesAfter((page) => getMessages(chatId, page), afterId, untilId);

/**
 * After a (re)connect: the stretch `loaded` covers read again (edits, deletions and reactions made meanwhile)
 * and everything newer (see room-catch-up.ts).
 */
export const getMessagesSince = (chatId: string, loaded: Message[]): Promise<Message[]> =>
  catchUpMessages((page) => getMessages(chatId, page), loaded);

/**
 * The page around `messageId` joined up with the list whose oldest message is `firstLoadedId`: the messages
 * between the two follow, page by page, so the list stays one unbroken stretch of history. Null when the gap
 * is too long to fill (the caller then says the message could not be shown).
 */
export async function getMessagesAround(
  chatId: string,
  messageId: number,
  firstLoadedId: number | null,
): Promise<Message[] | null> {
  const page = await getMessages(chatId, { around: messageId, limit: PAGE_SIZE });
  if (firstLoadedId === null || page.length === 0) return page;
  const lastId = page[page.length - 1]!.id;
  if (lastId >= firstLoadedId) return page;
  const between = await getMessagesAfter(chatId, lastId, firstLoadedId);
  const reached = between.length > 0 && between[between.length - 1]!.id >= firstLoadedId;
  // A short last page also joins up: nothing newer exists than what came.
  return reached || between.length % CATCH_UP_LIMIT !== 0 ? page.concat(between) : null;
}

/**
 * The newest page, through the query cache for its loading, error and retry states. The live list is the
 * room's own state afterwards, so this is never refetched in the background; the room writes its newest page
 * back, and the cache (persisted, issue 12) keeps it, so a room visited recently opens at once, even offline,
 * and its socket's catch-up brings it up to date.
 */
export const useLatestMessages = (chatId: string) =>
  useQuery({
    queryKey: chatQueryKeys.messages(chatId),
    queryFn: () => getMessages(chatId),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
