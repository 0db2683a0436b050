import { lazy, Suspense } from 'react';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
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
  return (
    <>
      <ConfirmDialog
        open={acts.deleting !== null}
        title="Delete message?"
        confirmLabel="Delete"
        danger
        busy={acts.deleteBusy}
        onConfirm={() => void acts.confirmDelete()}
        onCancel={acts.cancelDelete}
      >
        This message will be deleted for everyone.
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
