import { MessagesSquare } from 'lucide-react';
import { Suspense } from 'react';
import { Outlet, useMatch } from 'react-router';
import { LoadingState } from '../components/ui/spinner';
import { useT } from '../lib/i18n/i18n';
import { usePageTitle } from '../lib/ui/document-title';
import { lazyRetry } from '../lib/ui/retry-import';
import { TWO_PANE_QUERY, useMediaQuery } from '../lib/ui/use-media-query';
import { useChatHotkeys } from './use-chat-hotkeys';

// The chat list's code (and the zod its New Group dialog checks with) is loaded only for the two panes: a phone
// opening a room has no use for it.
const ChatListPane = lazyRetry(async () => ({
  default: (await import('../features/chats/components/chats-page')).ChatListPane,
}));

/** The height under the sticky app header (3.5 rem and its 1 px border). */
export const UNDER_HEADER = 'h-[calc(100dvh-3.5rem-1px)]';

/**
 * The frame of /chats, the rooms and their settings. From 1024 px the chat list stays on the left
 * and the open chat (or its settings) fills the right; /chats alone shows 'Select a chat' there. Narrower, each
 * route is one page as before. The routes are SPEC's either way, so links, reloads and the back button behave
 * the same in both.
 */
export function ChatsLayout() {
  const t = useT();
  const twoPane = useMediaQuery(TWO_PANE_QUERY);
  const atList = useMatch('/chats');
  useChatHotkeys();
  if (!twoPane) return <Outlet />;
  return (
    <div className={`flex w-full ${UNDER_HEADER}`} data-testid="two-pane">
      <aside
        aria-label={t('general.chats.list')}
        className="flex w-80 shrink-0 flex-col border-e border-slate-200 bg-white xl:w-96 dark:border-slate-800 dark:bg-slate-900"
      >
        <Suspense fallback={<LoadingState label={t('chats.loading')} />}>
          <ChatListPane />
        </Suspense>
      </aside>
      <div className="flex min-w-0 flex-1 flex-col overflow-y-auto" data-testid="chat-pane">
        {atList ? <SelectChat /> : <Outlet />}
      </div>
    </div>
  );
}

function SelectChat() {
  const t = useT();
  usePageTitle(t('chats.title'));
  return (
    <div className="m-auto flex max-w-sm flex-col items-center px-6 text-center">
      <span className="mb-4 inline-flex size-16 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
        <MessagesSquare aria-hidden="true" className="size-8" />
      </span>
      <h1 className="text-xl font-semibold text-slate-900 dark:text-slate-100">
        {t('general.chats.select')}
      </h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('general.chats.selectHint')}</p>
    </div>
  );
}
