import { DELETED_MESSAGE_TEXT, type FollowedThread, type Message } from '@parley/protocol';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { threadPath } from '../../../lib/text/chat-path';
import { lastReplyText, replyCountText } from '../../../lib/text/thread-texts';
import { cn } from '../../../lib/ui/cn';

/** A message in a line or two: its text, or what stands for it (deleted, files alone). */
function excerpt(message: Message): string {
  if (message.is_deleted) return DELETED_MESSAGE_TEXT;
  if (message.body) return message.body;
  return message.files.length === 1 ? 'A file' : `${message.files.length} files`;
}

/**
 * One followed thread in the Threads view: its chat, its root, its newest replies and how many of them the
 * reader has not read; choosing it opens the thread.
 */
export function ThreadRow({ thread }: { thread: FollowedThread }) {
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
          <p className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900 dark:text-slate-100">
            {thread.chat_name}
          </p>
          {unread > 0 && (
            <span
              data-testid="thread-unread"
              className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1.5 text-xs font-semibold text-white"
            >
              {unread}
              <span className="sr-only"> unread {unread === 1 ? 'reply' : 'replies'}</span>
            </span>
          )}
        </div>
        <div className="mt-1.5 flex items-start gap-2">
          <Avatar src={root.sender_avatar} name={root.sender_name} size="sm" tone="muted" lazy />
          <p className="min-w-0 flex-1 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium text-slate-900 dark:text-slate-100">{root.sender_name}</span>{' '}
            <span className={cn('line-clamp-2 [overflow-wrap:anywhere]', root.is_deleted && 'italic')}>
              {excerpt(root)}
            </span>
          </p>
        </div>
        {replies.length > 0 && (
          <ul className="mt-2 space-y-1 border-s-2 border-slate-200 ps-3 dark:border-slate-700">
            {replies.map((reply) => (
              <li key={reply.id} className="truncate text-sm text-slate-600 dark:text-slate-400">
                <span className="font-medium text-slate-800 dark:text-slate-200">{reply.sender_name}:</span>{' '}
                <span className={cn(reply.is_deleted && 'italic')}>{excerpt(reply)}</span>
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
