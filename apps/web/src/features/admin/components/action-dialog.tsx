import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { ModalDialog } from '../../../components/ui/modal-dialog';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import '../lib/admin-texts';

/**
 * Confirms one admin action and asks for its note (kept in the audit log). Mounted only while open; `onConfirm`
 * resolves when the action is done, or throws and the dialog shows the server's reason.
 */
export function ActionDialog({
  title,
  children,
  confirmLabel,
  danger = false,
  onConfirm,
  onClose,
}: {
  title: ReactNode;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: (note: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const t = useT();
  const titleId = useId();
  const noteId = useId();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onConfirm(note.trim());
      onClose();
    } catch (err) {
      setError(serverErrorOr(err, t('admin.dialog.failed')));
      setBusy(false);
    }
  };

  return (
    <ModalDialog
      labelledBy={titleId}
      onClose={() => !busy && onClose()}
      className="w-[calc(100%-2rem)] max-w-md"
    >
      <form onSubmit={submit} className="space-y-4 p-6">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="text-sm text-slate-600 dark:text-slate-400">{children}</div>
        <div className="space-y-1.5">
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            {t('admin.dialog.note')}
          </label>
          <textarea
            id={noteId}
            value={note}
            maxLength={500}
            rows={3}
            onChange={(e) => setNote(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus-visible:outline-2 focus-visible:outline-brand-600 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
        </div>
        {error && <ErrorBanner>{error}</ErrorBanner>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            {t('admin.dialog.cancel')}
          </Button>
          <Button type="submit" variant={danger ? 'danger' : 'primary'} loading={busy}>
            {confirmLabel}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
