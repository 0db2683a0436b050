import {
  REPORT_NOTE_MAX_LENGTH,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  type ReportReason,
} from '@parley/protocol';
import { useId, useState } from 'react';
import { serverErrorOr } from '../lib/http/api-error';
import { useSendReport } from '../lib/queries/safety';
import { toast } from '../lib/ui/toast';
import { ErrorBanner } from './ui/alert';
import { Button } from './ui/button';
import { ModalDialog } from './ui/modal-dialog';

/**
 * Report a message (by id) or a person (by username) to the server's operators: a reason, an optional
 * note; the confirmation is a toast.
 */
export function ReportDialog({
  subject,
  target,
  onClose,
}: {
  /** What is reported, as the title says it: 'this message', 'Ada Lovelace'. */
  subject: string;
  target: { message_id: number } | { username: string };
  onClose: () => void;
}) {
  const titleId = useId();
  const noteId = useId();
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const send = useSendReport();

  const submit = () => {
    if (!reason) return setError('Choose a reason.');
    setError(null);
    send.mutate(
      { ...target, reason, note },
      {
        onSuccess: (res) => {
          toast.success(res.detail);
          onClose();
        },
        onError: (e) => setError(serverErrorOr(e, 'Failed to send the report. Please try again.')),
      },
    );
  };

  return (
    <ModalDialog labelledBy={titleId} onClose={onClose} className="w-[calc(100%-2rem)] max-w-md">
      <form
        className="space-y-4 p-6"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <h2 id={titleId} className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          Report {subject}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          The operators of this server will see your report. The person you report is not told who sent it.
        </p>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">Reason</legend>
          {REPORT_REASONS.map((r) => (
            <label
              key={r}
              className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 dark:border-slate-700 px-3 py-2 text-sm text-slate-800 dark:text-slate-200 has-checked:border-brand-600 has-checked:bg-brand-50 dark:has-checked:bg-brand-500/15"
            >
              <input
                type="radio"
                name="reason"
                value={r}
                checked={reason === r}
                onChange={() => setReason(r)}
                className="accent-brand-600"
              />
              {REPORT_REASON_LABELS[r]}
            </label>
          ))}
        </fieldset>
        <div className="space-y-1.5">
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            Note (optional)
          </label>
          <textarea
            id={noteId}
            rows={3}
            maxLength={REPORT_NOTE_MAX_LENGTH}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 dark:border-slate-700 bg-white dark:bg-slate-900 px-3 py-2 text-sm text-slate-900 dark:text-slate-100 shadow-sm focus-visible:outline-2 focus-visible:outline-brand-600"
          />
        </div>
        {error && <ErrorBanner>{error}</ErrorBanner>}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={send.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" loading={send.isPending}>
            Send report
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
