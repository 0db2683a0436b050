import type { ThreadSummary as Summary } from '@parley/protocol';
import { MessageSquareReply } from 'lucide-react';
import { Avatar } from '../../../components/avatar';
import { useT } from '../../../lib/i18n/i18n';
import { lastReplyText, replyCountText } from '../../../lib/text/thread-texts';
import type { MessageActions } from './message-actions-context';

/** How many participants' faces the line under a root shows. */
const FACES = 3;

/**
 * Under a root in the timeline: '3 replies' with the first participants' avatars and when the last reply came;
 * activating it opens the thread. Live: the room's thread_updated frames change it for everyone.
 */
export function ThreadSummary({
  rootId,
  thread,
  actions,
}: {
  rootId: number;
  thread: Summary;
  actions: Pick<MessageActions, 'names' | 'avatars'> & { openThread: (rootId: number) => void };
}) {
  const t = useT();
  const count = replyCountText(thread.reply_count);
  const last = lastReplyText(thread.last_reply_at);
  return (
    <button
      type="button"
      onClick={() => actions.openThread(rootId)}
      data-thread-root={rootId}
      className="mt-1 flex max-w-full items-center gap-2 rounded-lg border border-transparent px-1.5 py-1 text-xs transition-colors hover:border-slate-200 hover:bg-white dark:hover:border-slate-800 dark:hover:bg-slate-900"
    >
      <span className="flex shrink-0 -space-x-1">
        {thread.participant_ids.slice(0, FACES).map((id) => (
          <span key={id} className="rounded-full ring-2 ring-slate-50 dark:ring-slate-950">
            <Avatar src={actions.avatars.get(id) ?? null} name={actions.names.get(id) ?? ''} size="xs" />
          </span>
        ))}
      </span>
      <span className="font-semibold text-brand-700 dark:text-brand-300">{count}</span>{' '}
      <span className="truncate text-slate-600 dark:text-slate-400">{last}</span>
      <span className="sr-only">{t('room.thread.open')}</span>
    </button>
  );
}

/** Under a reply that was also sent to the chat: which thread it belongs to, and a way there. */
export function InThreadNote({
  rootId,
  openThread,
}: {
  rootId: number;
  openThread: (rootId: number) => void;
}) {
  const t = useT();
  return (
    <button
      type="button"
      onClick={() => openThread(rootId)}
      className="mt-1 inline-flex items-center gap-1 rounded px-1 text-xs font-medium text-brand-700 hover:underline dark:text-brand-300"
    >
      <MessageSquareReply aria-hidden="true" className="size-3.5" />
      {t('room.thread.inThread')}
    </button>
  );
}
