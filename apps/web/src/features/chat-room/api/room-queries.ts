import type { ChatDetail, Message } from '@parley/protocol';
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';
import { browserAuthStorage, readToken } from '../../../lib/session/auth-storage';
import { authStore } from '../../../lib/session/auth-store';
import { PAGE_SIZE } from '../lib/page-size';

// A room's two first requests, the chat's detail and its newest page, kept small enough for the first download:
// the route starts them as soon as it matches (app/router.tsx), beside the room's own code, not after it.

export { PAGE_SIZE };

/** GET /api/chats/{chat_id}/ → the chat; a private chat lists the other party first. 404 for non-members. */
export const getChat = (chatId: string): Promise<ChatDetail> =>
  api.get<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/`);

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
 * A history entry with the conversation essentials' fields, defaulted when an answer lacks them (an older server during a
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

/** When each room was last entered (its route matched): the detail must be fetched since then. */
const entries = new Map<string, number>();

/** The time the route to `chatId` last matched, or now when it never did (a room drawn outside the router). */
export const roomEnteredAt = (chatId: string): number => entries.get(chatId) ?? Date.now();

/**
 * The chat's detail, fetched afresh on every entry (its first unread message decides where the room opens),
 * but not fetched again by the room when the route's own request, made on this entry, already brought it.
 */
export const chatQuery = (chatId: string) =>
  queryOptions({
    queryKey: chatQueryKeys.detail(chatId),
    queryFn: () => getChat(chatId),
    refetchOnWindowFocus: false,
    refetchOnMount: (query) => query.state.dataUpdatedAt < roomEnteredAt(chatId),
  });

/**
 * The newest page, through the query cache for its loading, error and retry states. The live list is the
 * room's own state afterwards, so this is never refetched in the background; the room writes its newest page
 * back, and the cache (persisted) keeps it, so a room visited recently opens at once, even offline,
 * and its socket's catch-up brings it up to date.
 */
export const latestMessagesQuery = (chatId: string) =>
  queryOptions({
    queryKey: chatQueryKeys.messages(chatId),
    queryFn: () => getMessages(chatId),
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

/**
 * The route entering a room: notes the time, and (signed in) starts the detail and, unless cached, the newest
 * page while the room's code is still on its way.
 */
export function enterRoom(client: QueryClient, chatId: string): void {
  entries.set(chatId, Date.now());
  // Before the store has read the session (main.tsx reads it before the first render makes the router), the
  // stored token decides (the API client sends that one anyway).
  const { loading, isAuthenticated } = authStore.getState();
  const signedIn = loading ? readToken(browserAuthStorage) !== null : isAuthenticated;
  if (!signedIn || !chatId) return;
  void client.prefetchQuery(chatQuery(chatId));
  if (client.getQueryData(chatQueryKeys.messages(chatId)) === undefined)
    void client.prefetchQuery(latestMessagesQuery(chatId));
}
