import type { Message } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { CATCH_UP_LIMIT, catchUpMessages, pagesAfter } from '../lib/room-catch-up';
import { getMessages, latestMessagesQuery, PAGE_SIZE } from './room-queries';

export { getMessages, type MessagesPage } from './room-queries';

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

export const useLatestMessages = (chatId: string) => useQuery(latestMessagesQuery(chatId));
