import { lazy, Suspense } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { useT } from '../../../lib/i18n/i18n';
import type { useMessageActions } from '../hooks/use-message-actions';
import { EditHistoryDialog } from './edit-history-dialog';

const ForwardDialog = lazy(() => import('./forward-dialog'));

/** What the message menu opens over a list of messages: the delete confirmation, earlier versions, forward. */
export function MessageDialogs({
  chatId,
  acts,
}: {
  chatId: string;
  acts: ReturnType<typeof useMessageActions>;
}) {
  const t = useT();
  return (
    <>
      <ConfirmDialog
        open={acts.deleting !== null}
        title={t('browse.room.deleteTitle')}
        confirmLabel={t('room.menu.delete')}
        danger
        busy={acts.deleteBusy}
        onConfirm={() => void acts.confirmDelete()}
        onCancel={acts.cancelDelete}
      >
        {t('browse.room.deleteText')}
      </ConfirmDialog>
      {acts.editsOf && <EditHistoryDialog chatId={chatId} message={acts.editsOf} onClose={acts.closeEdits} />}
      {acts.forwarding && (
        <Suspense fallback={null}>
          <ForwardDialog chatId={chatId} message={acts.forwarding} onClose={acts.closeForward} />
        </Suspense>
      )}
    </>
  );
}
