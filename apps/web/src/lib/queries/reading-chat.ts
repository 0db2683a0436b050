import type { ChatListItem } from '@parley/protocol';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

// The chat being read: open, on screen and in the focused window. Its messages are reported read as they
// arrive, so nothing of it is unread for the reader: its row in the chat list shows no badge, and the tab's
// title leaves it out, even in the moment before the server has written the reads (the list is fetched again
// once it has: the notification channel's next count).

export const readingChat = createStore<{ chatId: string | null }>()(() => ({ chatId: null }));

export const useReadingChatId = (): string | null => useStore(readingChat, (s) => s.chatId);

/** The room marks its chat as read while it is read; the returned function is the effect's cleanup. */
export function startReading(chatId: string): () => void {
  readingChat.setState({ chatId });
  return () => {
    if (readingChat.getState().chatId === chatId) readingChat.setState({ chatId: null });
  };
}

type Counted = Pick<ChatListItem, 'chat_id' | 'unread_count'> &
  Partial<Pick<ChatListItem, 'muted' | 'thread_unread_count'>>;

/** The unread count a chat's row shows: none for the chat being read. */
export const shownUnread = (chat: Counted, readingId: string | null): number =>
  chat.chat_id === readingId ? 0 : chat.unread_count;

/**
 * The count the tab's title shows: the notification channel's total, less what the chat list says is unread
 * in muted chats (they call for no attention) and in the chat being read.
 */
export function titleUnread(total: number, chats: Counted[] | undefined, readingId: string | null): number {
  let quiet = 0;
  for (const c of chats ?? []) if (c.muted || c.chat_id === readingId) quiet += c.unread_count;
  return Math.max(0, total - quiet);
}

/**
 * Whether the chat list as cached agrees with the notification channel's total (the unread counts of chats not
 * muted and the unread replies of followed threads, muted or not, add up to it). When it does not, the list is fetched again: after the reader's own reads were written,
 * say, which change no total but leave a badge in the cached list.
 */
export function listAgrees(chats: Counted[] | undefined, total: number): boolean {
  if (!chats) return true;
  let sum = 0;
  for (const c of chats) sum += (c.muted ? 0 : c.unread_count) + (c.thread_unread_count ?? 0);
  return sum === total;
}
