import type { Report, ReportAction } from '@parley/protocol';
import { useState } from 'react';
import { ErrorBanner, InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadingState, Spinner } from '../../../components/ui/spinner';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import { Slots, slotsFor } from '../../../lib/i18n/slotted';
import { fullDateTime } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';
import { useReport, useReports, useResolveReport } from '../api/admin-api';
import { REPORT_REASON_IDS } from '../lib/admin-texts';
import { ActionDialog } from './action-dialog';
import { Handle, Name, Pager } from './parts';

const ACTIONS: Record<ReportAction, { label: MessageId; danger?: boolean }> = {
  dismiss: { label: 'admin.reports.dismiss' },
  delete_message: { label: 'admin.reports.deleteMessage', danger: true },
  deactivate_user: { label: 'admin.reports.deactivateAuthor', danger: true },
};

/** What the action's dialog says will happen. */
function Say({ report, action }: { report: Report; action: ReportAction }) {
  const t = useT();
  if (action === 'dismiss') return <>{t('admin.reports.dismissSay')}</>;
  if (action === 'delete_message') return <>{t('admin.reports.deleteMessageSay')}</>;
  if (!report.target) return <>{t('admin.reports.deactivateAuthorSay')}</>;
  return (
    <Slots
      text={t('admin.reports.deactivateSay', slotsFor(['name']))}
      nodes={[<Name key="name">{report.target.name}</Name>]}
    />
  );
}

/** A person of a report: 'Ada Lovelace (@ada)', or that the account is gone. */
function Who({ person }: { person: Report['reporter'] }) {
  const t = useT();
  if (!person) return <>{t('admin.reports.deletedAccount')}</>;
  return (
    <Slots
      text={t('admin.reports.person', slotsFor(['name', 'username']))}
      nodes={[<Name key="name">{person.name}</Name>, <Handle key="username" username={person.username} />]}
    />
  );
}

/** The reported message among the messages around it, as they read now. */
function InContext({ report }: { report: Report }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  const detail = useReport(report.id, open);
  if (report.message_id === null) return null;
  return (
    <div className="mt-3">
      <Button variant="ghost" size="sm" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? t('admin.reports.hideContext') : t('admin.reports.showContext')}
      </Button>
      {open && (
        <div className="mt-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
          {detail.isPending ? (
            <Spinner size="sm" />
          ) : detail.data?.context?.length ? (
            <ol aria-label={t('admin.reports.context')} className="space-y-2 text-sm">
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
                  <span translate="no" className="font-medium text-slate-900 dark:text-slate-100">
                    {m.sender_name}
                  </span>{' '}
                  <time dateTime={m.timestamp} className="text-xs text-slate-600 dark:text-slate-400">
                    {fullDateTime(m.timestamp)}
                  </time>
                  {m.is_deleted ? (
                    <p className="text-slate-800 dark:text-slate-200">
                      <em>{t('room.msg.deleted')}</em>
                    </p>
                  ) : (
                    <p
                      dir="auto"
                      translate="no"
                      className="whitespace-pre-wrap break-words text-slate-800 dark:text-slate-200"
                    >
                      {m.body}
                    </p>
                  )}
                  {m.id === report.message_id && (
                    <span className="sr-only">{t('admin.reports.theReported')}</span>
                  )}
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-sm text-slate-600 dark:text-slate-400">{t('admin.reports.contextGone')}</p>
          )}
        </div>
      )}
    </div>
  );
}

function ReportCard({ report, onAct }: { report: Report; onAct: (action: ReportAction) => void }) {
  const t = useT();
  const actions: ReportAction[] = ['dismiss'];
  if (report.message_id !== null) actions.push('delete_message');
  if (report.target) actions.push('deactivate_user');
  return (
    <li>
      <Card>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div>
            <h3 className="font-medium text-slate-900 dark:text-slate-100">
              <Slots
                text={t(report.message_id !== null ? 'admin.reports.titleMessage' : 'admin.reports.title', {
                  reason: t(REPORT_REASON_IDS[report.reason]),
                  ...slotsFor(['who']),
                })}
                nodes={[<Who key="who" person={report.target} />]}
              />
            </h3>
            <p className="text-sm text-slate-600 dark:text-slate-400">
              <Slots
                text={t('admin.reports.reportedBy', slotsFor(['who', 'time']))}
                nodes={[
                  <Who key="who" person={report.reporter} />,
                  <time key="time" dateTime={report.created_at}>
                    {fullDateTime(report.created_at)}
                  </time>,
                ]}
              />
            </p>
          </div>
          {report.resolution && (
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              {report.resolution.resolved_by?.username ? (
                <Slots
                  text={t('admin.reports.resolvedBy', {
                    action: t(ACTIONS[report.resolution.action].label),
                    ...slotsFor(['username']),
                  })}
                  nodes={[<Handle key="username" username={report.resolution.resolved_by.username} />]}
                />
              ) : (
                t(ACTIONS[report.resolution.action].label)
              )}
            </span>
          )}
        </div>
        {report.message_body !== null && (
          <blockquote
            dir="auto"
            translate="no"
            className="mt-3 border-s-4 border-amber-400 ps-3 text-sm whitespace-pre-wrap break-words text-slate-800 dark:border-amber-600 dark:text-slate-200"
          >
            {report.message_body}
          </blockquote>
        )}
        {report.note && (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">{t('admin.reports.reporterNote')}</span>{' '}
            <span dir="auto" translate="no">
              {report.note}
            </span>
          </p>
        )}
        {report.resolution?.note && (
          <p className="mt-2 text-sm text-slate-700 dark:text-slate-300">
            <span className="font-medium">{t('admin.reports.resolutionNote')}</span>{' '}
            <span dir="auto" translate="no">
              {report.resolution.note}
            </span>
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
                aria-label={t('admin.reports.actionFor', { action: t(ACTIONS[a].label), id: report.id })}
              >
                {t(ACTIONS[a].label)}
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
  const t = useT();
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const [page, setPage] = useState(1);
  const reports = useReports(status, page);
  const resolve = useResolveReport();
  const [pending, setPending] = useState<{ report: Report; action: ReportAction } | null>(null);
  const pages = Math.max(1, Math.ceil((reports.data?.count ?? 0) / 50));

  return (
    <>
      <fieldset className="flex gap-4 text-sm text-slate-800 dark:text-slate-200">
        <legend className="sr-only">{t('admin.reports.which')}</legend>
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
            {s === 'open' ? t('admin.reports.open') : t('admin.reports.resolved')}
          </label>
        ))}
      </fieldset>
      {reports.error && <ErrorBanner>{t('admin.reports.loadFailed')}</ErrorBanner>}
      {reports.isPending ? (
        <LoadingState />
      ) : reports.data?.results.length ? (
        <ul
          aria-label={status === 'open' ? t('admin.reports.openList') : t('admin.reports.resolvedList')}
          className="space-y-4"
        >
          {reports.data.results.map((r) => (
            <ReportCard key={r.id} report={r} onAct={(action) => setPending({ report: r, action })} />
          ))}
        </ul>
      ) : (
        <InfoNote>
          {status === 'open' ? t('admin.reports.noneOpen') : t('admin.reports.noneResolved')}
        </InfoNote>
      )}
      {pages > 1 && <Pager label={t('admin.reports.pages')} page={page} pages={pages} onPage={setPage} />}
      {pending && (
        <ActionDialog
          title={t('admin.reports.dialogTitle', { action: t(ACTIONS[pending.action].label) })}
          confirmLabel={t(ACTIONS[pending.action].label)}
          danger={ACTIONS[pending.action].danger}
          onConfirm={(note) => resolve.mutateAsync({ id: pending.report.id, action: pending.action, note })}
          onClose={() => setPending(null)}
        >
          <Say report={pending.report} action={pending.action} />
        </ActionDialog>
      )}
    </>
  );
}
