import type { Message } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Button } from '../../../components/ui/button';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { getEdits } from '../api/message-actions';
import { fullTimeOf as timeOf } from './message-parts';

/** A message's earlier versions, oldest first, then the current text. A modal <dialog>. */
export function EditHistoryDialog({
  chatId,
  message,
  onClose,
}: {
  chatId: string;
  message: Message;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const edits = useQuery({
    queryKey: ['chats', 'edits', chatId, message.id, message.edited_at],
    queryFn: () => getEdits(chatId, message.id),
    gcTime: 0,
  });

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="w-[calc(100%-2rem)] max-w-md">
      <div className="p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {t('room.edits.title')}
        </h2>
        {edits.isPending ? (
          <div className="flex justify-center py-6">
            <Spinner className="text-brand-600 dark:text-brand-300" />
          </div>
        ) : edits.isError ? (
          <p role="alert" className="mt-3 text-sm text-red-600 dark:text-red-400">
            {t('room.edits.loadFailed')}
          </p>
        ) : (
          <ol className="mt-3 max-h-80 space-y-2 overflow-y-auto text-sm">
            {edits.data.map((version) => (
              <li key={version.edited_at} className="rounded-lg bg-slate-100 dark:bg-slate-800 px-3 py-2">
                <p translate="no" className="break-words whitespace-pre-wrap">
                  {version.body}
                </p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  {t('room.edits.replaced', { when: timeOf(version.edited_at) })}
                </p>
              </li>
            ))}
            <li className="rounded-lg border border-slate-200 dark:border-slate-800 px-3 py-2">
              <p translate="no" className="break-words whitespace-pre-wrap">
                {message.body}
              </p>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {message.edited_at
                  ? t('room.edits.currentEdited', { when: timeOf(message.edited_at) })
                  : t('room.edits.current')}
              </p>
            </li>
          </ol>
        )}
        <div className="mt-6 flex justify-end">
          <Button variant="secondary" onClick={onClose} autoFocus>
            {t('room.edits.close')}
          </Button>
        </div>
      </div>
    </ModalDialog>
  );
}
