import { useLingui } from '@lingui/react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useUnreadCount } from '../features/notifications/notification-store';
import { chatListQueryOptions } from '../lib/queries/chat-list-query';
import { titleUnread, useReadingChatId } from '../lib/queries/reading-chat';
import { useAuth } from '../lib/session/auth-store';
import { documentTitle, usePageTitleState } from '../lib/ui/document-title';
import { setFaviconCount } from './favicon-badge';

/**
 * The tab's title and icon: the screen's name (usePageTitle) with the unread total in front, '(3) Parley',
 * and the same total as a badge on the icon. The total is the notification channel's, the one the Chats
 * badge shows, less the unread messages of muted chats and of the chat being read as the chat list last said
 * (read from the cache only: the title fetches nothing).
 */
export function DocumentHead() {
  // The title is in the reader's language: a change of language writes it again.
  useLingui();
  const signedIn = useAuth((s) => s.isAuthenticated);
  const count = useUnreadCount();
  const readingId = useReadingChatId();
  const chats = useQuery({ ...chatListQueryOptions(), enabled: false }).data;
  const unread = signedIn ? titleUnread(count, chats, readingId) : 0;
  const title = usePageTitleState();
  const text = documentTitle(title, title.raw ? 0 : unread);
  useEffect(() => {
    document.title = text;
  }, [text]);
  useEffect(() => {
    void setFaviconCount(title.raw ? 0 : unread);
  }, [unread, title.raw]);
  return null;
}
