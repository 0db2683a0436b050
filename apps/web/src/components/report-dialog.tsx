import { REPORT_NOTE_MAX_LENGTH, REPORT_REASONS, type ReportReason } from '@parley/protocol';
import { useId, useState } from 'react';
import { serverErrorOr } from '../lib/http/api-error';
import { type MessageId, useT } from '../lib/i18n/i18n';
import { localText } from '../lib/i18n/server-texts';
import { SLOT, Slotted } from '../lib/i18n/slotted';
import { useSendReport } from '../lib/queries/safety';
import { toast } from '../lib/ui/toast';
import './safety-texts';
import { ErrorBanner } from './ui/alert';
import { Button } from './ui/button';
import { ModalDialog } from './ui/modal-dialog';

/** The reasons' words. */
const REASON_TEXTS: Record<ReportReason, MessageId> = {
  spam: 'groups.report.spam',
  harassment: 'groups.report.harassment',
  inappropriate: 'groups.report.inappropriate',
  other: 'groups.report.other',
};

/**
 * Report a message (by id) or a person (by username) to the server's operators: a reason, an optional
 * note; the confirmation is a toast.
 */
export function ReportDialog({
  subject,
  target,
  onClose,
}: {
  /** Whom a person's report is about, as the title names them ('Ada Lovelace'); a message's title says 'this message'. */
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
  const t = useT();

  const submit = () => {
    if (!reason) return setError(t('groups.report.chooseReason'));
    setError(null);
    send.mutate(
      { ...target, reason, note },
      {
        onSuccess: (res) => {
          toast.success(localText(res.detail));
          onClose();
        },
        onError: (e) => setError(serverErrorOr(e, t('groups.report.failed'))),
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
          {'message_id' in target ? (
            t('groups.report.titleMessage')
          ) : (
            <Slotted text={t('groups.report.titlePerson', { name: SLOT })}>
              <span translate="no">{subject}</span>
            </Slotted>
          )}
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{t('groups.report.intro')}</p>
        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-300">
            {t('groups.report.reason')}
          </legend>
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
              {t(REASON_TEXTS[r])}
            </label>
          ))}
        </fieldset>
        <div className="space-y-1.5">
          <label htmlFor={noteId} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
            {t('groups.report.note')}
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
            {t('room.msg.cancel')}
          </Button>
          <Button type="submit" variant="danger" loading={send.isPending}>
            {t('groups.report.send')}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
