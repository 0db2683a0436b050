import { Compass, MessageSquarePlus, MessagesSquare, Users } from 'lucide-react';
import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import { ListLoadFailed } from '../../../components/list-load-failed';
import { Button, buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useMyChats } from '../../../lib/queries/chat-list-query';
import { shownUnread, useReadingChatId } from '../../../lib/queries/reading-chat';
import { filterByName } from '../../../lib/text/name-match';
import { cn } from '../../../lib/ui/cn';
import { usePageTitle } from '../../../lib/ui/document-title';
import { openNewChat } from '../../../lib/ui/search-dialogs';
import { ChatFilter } from './chat-filter';
import { ChatRow } from './chat-row';
import { NewGroupDialog } from './new-group-dialog';

/** /chats (SPEC §2 Chat list) as a page of its own: phones, tablets and narrow windows. */
export function ChatsPage() {
  const t = useT();
  usePageTitle(t('chats.title'));
  return <ChatList pane={false} />;
}

/** The chat list as the left pane of the two-pane layout (from 1024 px), beside the open chat. */
export const ChatListPane = () => <ChatList pane />;

function ChatList({ pane }: { pane: boolean }) {
  const t = useT();
  const chats = useMyChats();
  const readingId = useReadingChatId();
  const [newGroupOpen, setNewGroupOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const count = chats.data?.length ?? 0;
  const shown = chats.data ? filterByName(chats.data, filter, (c) => c.display_name) : [];
  const now = new Date();
  const Title = pane ? 'h2' : 'h1';

  return (
    <div
      className={
        pane
          ? 'flex h-full min-h-0 flex-col px-3 pt-4'
          : 'mx-auto w-full max-w-2xl px-4 py-6 sm:px-6 sm:py-10'
      }
    >
      <div className={cn('flex flex-wrap items-center justify-between gap-3', pane ? 'mb-3 px-1' : 'mb-6')}>
        <div className="flex items-center gap-3">
          <Title
            className={cn(
              'font-semibold tracking-tight text-slate-900 dark:text-slate-100',
              pane ? 'text-xl' : 'text-2xl',
            )}
          >
            {t('chats.title')}
          </Title>
          <span
            className="rounded-full bg-slate-200 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200"
            data-testid="chat-count"
          >
            {chats.isPending ? '...' : t('chats.count', { count })}
          </span>
        </div>
        <div className="flex gap-2">
          {/* SPEC: New Chat goes to / (so it stays a link there); a plain click opens the people search instead. */}
          <Link
            to="/"
            className={buttonClasses('secondary', pane ? 'sm' : 'md')}
            onClick={(event) => {
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
                return;
              event.preventDefault();
              openNewChat();
            }}
          >
            <MessageSquarePlus aria-hidden="true" className="size-4" />
            {t('chats.newChat')}
          </Link>
          <Button size={pane ? 'sm' : 'md'} onClick={() => setNewGroupOpen(true)}>
            <Users aria-hidden="true" className="size-4" />
            {t('chats.newGroup')}
          </Button>
          {/* The channel directory; in the narrow left pane the button is its icon alone. */}
          <NavLink
            to="/channels"
            title={t('chats.browseChannels')}
            className={buttonClasses('secondary', pane ? 'sm' : 'md', pane ? 'px-2' : undefined)}
          >
            <Compass aria-hidden="true" className="size-4" />
            <span className={pane ? 'sr-only' : undefined}>{t('chats.browseChannels')}</span>
          </NavLink>
        </div>
      </div>

      {count > 0 && <ChatFilter value={filter} onChange={setFilter} />}

      <section
        aria-label={t('chats.list')}
        className={cn(
          'overflow-y-auto',
          pane
            ? '-mx-3 min-h-0 flex-1 border-t border-slate-200 dark:border-slate-800'
            : 'max-h-[600px] rounded-2xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900',
        )}
      >
        {chats.isPending ? (
          <LoadingState label={t('chats.loading')} />
        ) : chats.isError ? (
          <ListLoadFailed
            text={t('chats.loadFailed')}
            onRetry={() => void chats.refetch()}
            busy={chats.isFetching}
          />
        ) : count === 0 ? (
          <div className="flex flex-col items-center px-4 py-14 text-center">
            <span className="mb-3 inline-flex size-12 items-center justify-center rounded-2xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-200">
              <MessagesSquare aria-hidden="true" className="size-6" />
            </span>
            <p className="font-semibold text-slate-900 dark:text-slate-100">{t('chats.empty')}</p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{t('chats.emptyHint')}</p>
          </div>
        ) : shown.length === 0 ? (
          <div className="flex flex-col items-center px-4 py-14 text-center">
            <p className="text-sm break-words text-slate-600 dark:text-slate-400">
              {t('chats.noMatch', { filter: filter.trim() })}
            </p>
            <Button variant="secondary" className="mt-4" onClick={() => setFilter('')}>
              {t('chats.showAll')}
            </Button>
          </div>
        ) : (
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {shown.map((chat) => (
              <ChatRow key={chat.chat_id} chat={chat} now={now} unreadCount={shownUnread(chat, readingId)} />
            ))}
          </ul>
        )}
      </section>

      <NewGroupDialog open={newGroupOpen} onClose={() => setNewGroupOpen(false)} />
    </div>
  );
}
