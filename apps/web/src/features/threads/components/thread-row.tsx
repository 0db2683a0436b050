import type { FollowedThread, Message } from '@parley/protocol';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { SrCount } from '../../../components/sr-count';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT } from '../../../lib/i18n/slotted';
import { threadPath } from '../../../lib/text/chat-path';
import { excerptIsWritten, messageExcerpt } from '../../../lib/text/message-excerpt';
import { lastReplyText, replyCountText } from '../../../lib/text/thread-texts';
import { cn } from '../../../lib/ui/cn';

/** A message in a line or two: its text (the writer's words), or what stands for it (deleted, files alone). */
function Excerpt({ message }: { message: Message }) {
  const t = useT();
  return (
    <span
      translate={excerptIsWritten(message) ? 'no' : undefined}
      className={cn('[overflow-wrap:anywhere]', message.is_deleted && 'italic')}
    >
      {messageExcerpt(message, t)}
    </span>
  );
}

/**
 * One followed thread in the Threads view: its chat, its root, its newest replies and how many of them the
 * reader has not read; choosing it opens the thread.
 */
export function ThreadRow({ thread }: { thread: FollowedThread }) {
  const t = useT();
  const { root, last_replies: replies, unread_count: unread } = thread;
  const summary = root.thread;
  return (
    <li>
      <Link
        to={threadPath({ chat_id: thread.chat_id, is_private: thread.is_private }, root.id)}
        data-testid="followed-thread"
        className="block px-4 py-3 outline-offset-[-2px] transition-colors hover:bg-slate-50 dark:hover:bg-slate-800/60"
      >
        <div className="flex items-center gap-2">
          <p
            translate="no"
            className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900 dark:text-slate-100"
          >
            {thread.chat_name}
          </p>
          {unread > 0 && (
            <span
              data-testid="thread-unread"
              className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
            >
              <SrCount text={t('browse.threads.unread', { count: unread, n: SLOT })} shown={unread} />
            </span>
          )}
        </div>
        <div className="mt-1.5 flex items-start gap-2">
          <Avatar src={root.sender_avatar} name={root.sender_name} size="sm" tone="muted" lazy />
          <p className="min-w-0 flex-1 text-sm text-slate-700 dark:text-slate-300">
            <span translate="no" className="font-medium text-slate-900 dark:text-slate-100">
              {root.sender_name}
            </span>{' '}
            <span className="line-clamp-2">
              <Excerpt message={root} />
            </span>
          </p>
        </div>
        {replies.length > 0 && (
          <ul className="mt-2 space-y-1 border-s-2 border-slate-200 ps-3 dark:border-slate-700">
            {replies.map((reply) => (
              <li key={reply.id} className="truncate text-sm text-slate-600 dark:text-slate-400">
                <span className="font-medium text-slate-800 dark:text-slate-200">
                  <span translate="no">{reply.sender_name}</span>:
                </span>{' '}
                <Excerpt message={reply} />
              </li>
            ))}
          </ul>
        )}
        {summary && (
          <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
            <span className="font-medium text-brand-700 dark:text-brand-300">
              {replyCountText(summary.reply_count)}
            </span>
            {' · '}
            {lastReplyText(summary.last_reply_at)}
          </p>
        )}
      </Link>
    </li>
  );
}
