import { REPORT_REASON_LABELS, type Report, type ReportAction } from '@parley/protocol';
import { useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingState, Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/ui/cn';
import { useReport, useReports, useResolveReport } from '../api/admin-api';
import { ActionDialog } from './action-dialog';
import { Pager } from './parts';

const ACTIONS: Record<ReportAction, { label: string; danger?: boolean; say: (r: Report) => string }> = {
  dismiss: { label: 'Dismiss', say: () => 'The report is closed and nothing else changes.' },
  delete_message: {
    label: 'Delete message',
    danger: true,
    say: () => 'The message is deleted for everyone in its chat, at once.',
  },
  deactivate_user: {
    label: 'Deactivate the author',
    danger: true,
    say: (r) =>
      `${r.target?.name ?? 'The author'} is signed out everywhere at once and cannot sign in until reactivated.`,
  },
};

const who = (p: Report['reporter']) => (p ? `${p.name} (@${p.username})` : 'a deleted account');

/** The reported message among the messages around it, as they read now. */
function InContext({ report }: { report: Report }) {
  const [open, setOpen] = useState(false);
  const detail = useReport(report.id, open);
  if (report.message_id === null) return null;
  return (
    <div className="mt-3">
      <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide the conversation' : 'Show in context'}
      </Button>
      {open && (
        <div className="mt-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          {detail.isPending ? (
            <Spinner size="sm" />
          ) : detail.data?.context?.length ? (
            <ol aria-label="The conversation around the reported message" className="space-y-2 text-sm">
              {detail.data.context.map((m) => (
                <li
                  key={m.id}
                  className={cn(
                    'rounded-lg px-3 py-2',
                    m.id === report.message_id
                      ? 'bg-amber-50 ring-1 ring-amber-300 dark:bg-amber-950/40 dark:ring-amber-700'
                      : 'bg-slate-50 dark:bg-slate-950',
                  )}
                >
                  <span className="font-medium text-slate-900 dark:text-slate-100">{m.sender_name}</span>{' '}
                  <time dateTime={m.timestamp} className="text-xs text-slate-600 dark:text-slate-400">
                    {new Date(m.timestamp).toLocaleString()}
                  </time>
                  <p className="whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200">
                    {m.is_deleted ? <em>This message was deleted</em> : m.body}
                  </p>
                  {m.id === report.message_id && <span className="sr-only">(the reported message)</span>}
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">The conversation is no longer there.</p>
          )}
        </div>
      )}
    </div>
  );
}

function ReportCard({ report, onAct }: { report: Report; onAct: (action: ReportAction) => void }) {
  const actions: ReportAction[] = ['dismiss'];
  if (report.message_id !== null) actions.push('delete_message');
  if (report.target) actions.push('deactivate_user');
  return (
    <li>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h3 className="font-medium text-slate-900 dark:text-slate-100">
              {REPORT_REASON_LABELS[report.reason]}: {report.message_id !== null ? 'a message by ' : ''}
              {who(report.target)}
            </h3>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              Reported by {who(report.reporter)} on{' '}
              <time dateTime={report.created_at}>{new Date(report.created_at).toLocaleString()}</time>
            </p>
          </div>
          {report.resolution && (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {ACTIONS[report.resolution.action].label}
              {report.resolution.resolved_by ? ` by @${report.resolution.resolved_by.username}` : ''}
            </span>
          )}
        </div>
        {report.message_body !== null && (
          <blockquote className="mt-3 border-s-4 border-amber-400 ps-3 text-sm whitespace-pre-wrap break-words text-slate-800 dark:border-amber-600 dark:text-slate-200">
            {report.message_body}
          </blockquote>
        )}
        {report.note && (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">Reporter's note:</span> {report.note}
          </p>
        )}
        {report.resolution?.note && (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">Resolution note:</span> {report.resolution.note}
          </p>
        )}
        <InContext report={report} />
        {report.status === 'open' && (
          <div className="mt-4 flex flex-wrap gap-2">
            {actions.map((a) => (
              <Button
                key={a}
                size="sm"
                variant={ACTIONS[a].danger ? 'danger' : 'secondary'}
                onClick={() => onAct(a)}
                aria-label={`${ACTIONS[a].label} (report ${report.id})`}
              >
                {ACTIONS[a].label}
              </Button>
            ))}
          </div>
        )}
      </Card>
    </li>
  );
}

/** The reports queue: open reports first, resolved ones on their own page; each action with a note. */
export function ReportsPanel() {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const [page, setPage] = useState(1);
  const reports = useReports(status, page);
  const resolve = useResolveReport();
  const [pending, setPending] = useState<{ report: Report; action: ReportAction } | null>(null);
  const pages = Math.max(1, Math.ceil((reports.data?.count ?? 0) / 50));

  return (
    <>
      <fieldset className="flex gap-4 text-sm text-slate-800 dark:text-slate-200">
        <legend className="sr-only">Which reports</legend>
        {(['open', 'resolved'] as const).map((s) => (
          <label key={s} className="inline-flex items-center gap-2">
            <input
              type="radio"
              name="report-status"
              checked={status === s}
              onChange={() => {
                setStatus(s);
                setPage(1);
              }}
            />
            {s === 'open' ? 'Open' : 'Resolved'}
          </label>
        ))}
      </fieldset>
      {reports.error && <ErrorBanner>Could not load the reports.</ErrorBanner>}
      {reports.isPending ? (
        <LoadingState />
      ) : reports.data?.results.length ? (
        <ul aria-label={status === 'open' ? 'Open reports' : 'Resolved reports'} className="space-y-4">
          {reports.data.results.map((r) => (
            <ReportCard key={r.id} report={r} onAct={(action) => setPending({ report: r, action })} />
          ))}
        </ul>
      ) : (
        <InfoNote>{status === 'open' ? 'No open reports.' : 'No resolved reports yet.'}</InfoNote>
      )}
      {pages > 1 && <Pager label="Report pages" page={page} pages={pages} onPage={setPage} />}
      {pending && (
        <ActionDialog
          title={`${ACTIONS[pending.action].label}?`}
          confirmLabel={ACTIONS[pending.action].label}
          danger={ACTIONS[pending.action].danger}
          onConfirm={(note) => resolve.mutateAsync({ id: pending.report.id, action: pending.action, note })}
          onClose={() => setPending(null)}
        >
          {ACTIONS[pending.action].say(pending.report)}
        </ActionDialog>
      )}
    </>
  );
}
