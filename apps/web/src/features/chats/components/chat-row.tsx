import { type ChatListItem, chatListTime, previewText } from '@parley/protocol';
import { BadgeCheck } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { chatPath } from '../../../lib/chat-path';

/** One chat in the list (SPEC §2): picture, name, verified badge, members, preview, Admin badge, time, unread. */
export function ChatRow({ chat, now }: { chat: ChatListItem; now: Date }) {
  const verified = chat.is_private && chat.other_user?.is_blue_verified;
  const avatar = chat.is_private ? (chat.other_user?.avatar ?? chat.avatar) : chat.avatar;
  const unread = chat.unread_count > 0;
  return (
    <li>
      <Link
        to={chatPath(chat)}
        className="flex items-center gap-3 px-4 py-3 transition-colors hover:bg-slate-50 focus-visible:bg-slate-50 focus-visible:outline-offset-[-2px]"
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
              className="absolute right-0 bottom-0 size-3 rounded-full bg-emerald-500 ring-2 ring-white"
            />
          )}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex items-center gap-2">
            <span className="flex min-w-0 items-center gap-1">
              <span
                className={
                  unread ? 'truncate font-semibold text-slate-900' : 'truncate font-medium text-slate-900'
                }
              >
                {chat.display_name}
              </span>
              {verified && (
                <BadgeCheck role="img" aria-label="Verified" className="size-4 shrink-0 text-sky-500" />
              )}
            </span>
            {chat.is_admin && (
              <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-800">
                Admin
              </span>
            )}
            {chat.last_message_time && (
              <time
                dateTime={chat.last_message_time}
                className={
                  unread
                    ? 'ml-auto shrink-0 text-xs font-medium text-brand-600'
                    : 'ml-auto shrink-0 text-xs text-slate-500'
                }
              >
                {chatListTime(chat.last_message_time, now)}
              </time>
            )}
          </div>
          <div className="mt-0.5 flex items-center gap-2">
            <p
              className={
                unread
                  ? 'min-w-0 flex-1 truncate text-sm text-slate-800'
                  : 'min-w-0 flex-1 truncate text-sm text-slate-500'
              }
            >
              {!chat.is_private && (
                <span className="text-slate-500">
                  {/* SPEC's text, word for word: 'N members' whatever N is. */}
                  {`${chat.member_count} members`} ·{' '}
                </span>
              )}
              {chat.last_message ? (
                previewText(chat.last_message)
              ) : (
                <span className="italic text-slate-500">No messages yet</span>
              )}
            </p>
            {unread && (
              <span
                className="ml-auto inline-flex h-5 min-w-5 shrink-0 items-center justify-center rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
                data-testid="unread-count"
              >
                {chat.unread_count > 99 ? '99+' : chat.unread_count}
                <span className="sr-only">
                  {' '}
                  {chat.unread_count === 1 ? 'unread message' : 'unread messages'}
                </span>
              </span>
            )}
          </div>
        </div>
      </Link>
    </li>
  );
}
