import type { SavedMessage } from '@parley/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { BookmarkX } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { serverErrorOr } from '../../../lib/http/api-error';
import { type MessageId, type MessageValues, useT } from '../../../lib/i18n/i18n';
import { setSaved } from '../../../lib/queries/saved';
import { dayText } from '../../../lib/text/locale-format';
import { excerptIsWritten, messageExcerpt } from '../../../lib/text/message-excerpt';
import { timeOf } from '../../../lib/text/time-format';
import { toast } from '../../../lib/ui/toast';
import { savedMessagePath } from '../lib/saved-path';

/** When the message was sent: its time today, 'Yesterday 09:12', or its day. */
function sentText(iso: string, t: (id: MessageId, values?: MessageValues) => string): string {
  const day = dayText(iso, new Date());
  if (day === t('time.today')) return timeOf(iso);
  return day === t('time.yesterday') ? t('browse.saved.yesterdayAt', { time: timeOf(iso) }) : day;
}

/** One saved message in the Saved messages view: its chat, sender and text, a link to it, and 'Unsave'. */
export function SavedRow({ entry, onUnsaved }: { entry: SavedMessage; onUnsaved: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const { message } = entry;
  // A system line has no sender: Parley wrote it.
  const sender = message.sender_name || 'Parley';
  const unsave = () => {
    setBusy(true);
    setSaved(queryClient, message, false).then(
      () => {
        toast.success(t('room.menu.unsaved'));
        onUnsaved();
      },
      (error) => {
        setBusy(false);
        toast.error(serverErrorOr(error, t('room.menu.saveFailed')));
      },
    );
  };
  return (
    <li className="flex items-start gap-1 pe-2">
      <Link
        to={savedMessagePath(entry)}
        data-testid="saved-message"
        className="block min-w-0 flex-1 px-4 py-3 outline-offset-[-2px] transition-colors hover:bg-slate-50 dark:hover:bg-slate-800/60"
      >
        <div className="flex items-center gap-2">
          <p
            translate="no"
            className="min-w-0 flex-1 truncate text-sm font-semibold text-slate-900 dark:text-slate-100"
          >
            {entry.chat_name}
          </p>
          <time dateTime={message.timestamp} className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
            {sentText(message.timestamp, t)}
          </time>
        </div>
        <div className="mt-1.5 flex items-start gap-2">
          <Avatar src={message.sender_avatar} name={sender} size="sm" tone="muted" lazy />
          <p className="min-w-0 flex-1 text-sm text-slate-700 dark:text-slate-300">
            <span
              translate={message.sender_name ? 'no' : undefined}
              className="font-medium text-slate-900 dark:text-slate-100"
            >
              {sender}
            </span>{' '}
            <span
              translate={excerptIsWritten(message) ? 'no' : undefined}
              className="line-clamp-3 [overflow-wrap:anywhere]"
            >
              {messageExcerpt(message, t)}
            </span>
          </p>
        </div>
      </Link>
      <button
        type="button"
        onClick={unsave}
        disabled={busy}
        aria-label={t('browse.saved.unsave', { name: sender })}
        title={t('room.menu.unsave')}
        className="mt-2 inline-flex size-9 shrink-0 items-center justify-center rounded-lg text-slate-600 transition-colors hover:bg-slate-100 hover:text-slate-900 disabled:opacity-50 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white"
      >
        <BookmarkX aria-hidden="true" className="size-4.5" />
      </button>
    </li>
  );
}
