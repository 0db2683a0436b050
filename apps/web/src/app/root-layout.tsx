import { useEffect } from 'react';
import { Outlet, useLocation, useMatch } from 'react-router';
import { NotificationListener } from '../features/notifications/notification-listener';
import { useT } from '../lib/i18n/i18n';
import { cn } from '../lib/ui/cn';
import { firstScreenDrawn } from '../lib/ui/first-screen';
import { AppHeader } from './app-header';
import { DocumentHead } from './document-head';
import { SearchHost } from './search-host';

const BARE_PATHS = ['/auth', '/login', '/register', '/verify-email', '/reset-password'];

/**
 * Every screen's frame. Auth screens bring their own full-page card; the rest get the header. On mobile
 * (≤ 768 px) extra bottom padding keeps content clear of browser bars, except in chat and group rooms,
 * whose composer sits at the bottom edge.
 */
export function RootLayout() {
  const t = useT();
  const inChatRoom = useMatch('/chats/:chatId');
  const inGroupRoom = useMatch('/groups/:chatId');
  // A thread open over or beside its room is still the room.
  const inChatThread = useMatch('/chats/:chatId/thread/:rootId');
  const inGroupThread = useMatch('/groups/:chatId/thread/:rootId');
  const { pathname } = useLocation();
  const authScreen = BARE_PATHS.includes(pathname.replace(/\/+$/, '') || '/');
  const inRoom = Boolean(inChatRoom || inGroupRoom || inChatThread || inGroupThread);
  // A room says itself when it has drawn its messages; any other screen has drawn what it first shows now.
  useEffect(() => {
    if (!inRoom) firstScreenDrawn();
  }, [inRoom]);
  return (
    <div className={cn('flex min-h-dvh flex-col', !inRoom && 'mobile:pb-20')} data-room={inRoom || undefined}>
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-3 py-2 text-sm font-medium focus:not-sr-only focus:fixed focus:top-2 focus:start-2 dark:bg-slate-900"
      >
        {t('general.skipToContent')}
      </a>
      <DocumentHead />
      <NotificationListener />
      <SearchHost />
      {!authScreen && <AppHeader />}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
    </div>
  );
}
