import { type ChatListItem, isMutedNow } from '@parley/protocol';
import { BadgeCheck, BellOff } from 'lucide-react';
import { NavLink } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { SrCount } from '../../../components/sr-count';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT } from '../../../lib/i18n/slotted';
import { chatPath } from '../../../lib/text/chat-path';
import { listTime } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';
import { lastMessagePreviewParts } from './chat-texts';

/**
 * One chat in the list (SPEC §2): picture, name, verified badge, members, preview, Admin badge, time, unread.
 * `unreadCount` is what the row shows: none for the chat being read (lib/queries/reading-chat.ts).
 */
export function ChatRow({ chat, now, unreadCount }: { chat: ChatListItem; now: Date; unreadCount: number }) {
  const t = useT();
  const verified = chat.is_private && chat.other_user?.is_blue_verified;
  const avatar = chat.is_private ? (chat.other_user?.avatar ?? chat.avatar) : chat.avatar;
  const unread = unreadCount > 0;
  const preview = lastMessagePreviewParts(chat, t);
  // A muted chat: a bell-off mark and a grey count, left out of the title's total by the server.
  const muted = isMutedNow(chat);
  return (
    <li>
      {/* In the two-pane layout the open chat's row is marked (aria-current="page") and tinted. */}
      <NavLink
        to={chatPath(chat)}
        className={({ isActive }) =>
          cn(
            'flex items-center gap-3 px-4 py-3 transition-colors focus-visible:outline-offset-[-2px]',
            isActive
              ? 'bg-brand-50 dark:bg-slate-800'
              : 'hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-800/60 dark:focus-visible:bg-slate-800/60',
          )
        }
      >
        <span className="relative inline-flex shrink-0">
          <Avatar
            src={avatar}
            name={chat.display_name}
            group={!chat.is_private}
            size="lg"
            tone="muted"
            lazy
          />
          {chat.is_private && chat.is_online && (
            <span
              aria-hidden="true"
              data-testid="online-dot"
              className="absolute end-0 bottom-0 size-3 rounded-full bg-emerald-500 ring-2 ring-white dark:ring-slate-900"
            />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <span className="flex min-w-0 items-center gap-1">
              <span
                translate="no"
                className={cn(
                  'truncate text-slate-900 dark:text-slate-100',
                  unread ? 'font-semibold' : 'font-medium',
                )}
              >
                {chat.display_name}
              </span>
              {verified && (
                <BadgeCheck
                  role="img"
                  aria-label={t('room.header.verified')}
                  className="size-4 shrink-0 text-sky-600 dark:text-sky-400"
                />
              )}
            </span>
            {muted && (
              <BellOff
                role="img"
                aria-label={t('browse.chats.muted')}
                className="size-3.5 shrink-0 text-slate-500 dark:text-slate-400"
              />
            )}
            {chat.is_admin && (
              <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800 dark:bg-amber-400/15 dark:text-amber-200">
                {t('browse.chats.admin')}
              </span>
            )}
            {chat.last_message_time && (
              <time
                dateTime={chat.last_message_time}
                className={cn(
                  'ms-auto shrink-0 text-xs',
                  unread
                    ? 'font-medium text-brand-700 dark:text-brand-200'
                    : 'text-slate-600 dark:text-slate-400',
                )}
              >
                {listTime(chat.last_message_time, now)}
              </time>
            )}
          </div>
          <div className="mt-0.5 flex items-center gap-2">
            <p
              className={cn(
                'min-w-0 flex-1 truncate text-sm',
                unread ? 'text-slate-800 dark:text-slate-200' : 'text-slate-600 dark:text-slate-400',
              )}
            >
              {!chat.is_private && <span>{t('browse.chats.members', { count: chat.member_count })} · </span>}
              {preview ? (
                <>
                  {preview.prefix}
                  <span translate={preview.written ? 'no' : undefined}>{preview.text}</span>
                </>
              ) : (
                <span className="italic">{t('browse.chats.noMessages')}</span>
              )}
            </p>
            {unread && (
              <span
                className={cn(
                  'ms-auto inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full px-1.5 text-xs font-semibold',
                  muted
                    ? 'bg-slate-200 text-slate-700 dark:bg-slate-700 dark:text-slate-200'
                    : 'bg-brand-600 text-white',
                )}
                data-testid="unread-count"
                data-muted={muted || undefined}
              >
                <SrCount
                  text={t('browse.chats.unread', { count: unreadCount, n: SLOT })}
                  shown={unreadCount > 99 ? '99+' : unreadCount}
                />
              </span>
            )}
          </div>
        </div>
      </NavLink>
    </li>
  );
}
