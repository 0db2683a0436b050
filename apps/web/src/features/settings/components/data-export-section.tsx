import { type DataExport, EXPORT_MSG } from '@parley/protocol';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { cn } from '../../../lib/ui/cn';
import { toast } from '../../../lib/ui/toast';
import { downloadExport } from '../api/download-export';
import { useExports } from '../api/list-exports';
import { useRequestExport } from '../api/request-export';

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const megabytes = (size: number | null) => (size === null ? '' : ` · ${(size / 1024 / 1024).toFixed(1)} MB`);

function ExportRow({ item, linked }: { item: DataExport; linked: boolean }) {
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    downloadExport(item.id)
      .catch((error) =>
        toast.error(
          isApiError(error) && error.status === 404
            ? EXPORT_MSG.expired
            : serverErrorOr(error, 'Download failed'),
        ),
      )
      .finally(() => setBusy(false));
  };
  return (
    <li
      className={cn(
        'flex items-center justify-between gap-3 rounded-lg px-3 py-2',
        linked && 'bg-brand-50 ring-1 ring-brand-200 dark:bg-brand-500/15 dark:ring-brand-500/30',
      )}
    >
      <div className="text-sm">
        <p className="font-medium text-slate-900 dark:text-slate-100">Export of {when(item.created_at)}</p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {item.status === 'preparing'
            ? 'Being prepared…'
            : item.status === 'failed'
              ? EXPORT_MSG.failed
              : `Available until ${when(item.expires_at)}${megabytes(item.size)}`}
        </p>
      </div>
      {item.status === 'ready' && (
        <Button variant={linked ? 'primary' : 'secondary'} size="sm" loading={busy} onClick={download}>
          Download
        </Button>
      )}
    </li>
  );
}

/** Settings: "Export my data" — a ZIP prepared on request, mailed as a link, downloadable for 24 hours. */
export function DataExportSection() {
  const exportsList = useExports();
  const request = useRequestExport();
  const [params] = useSearchParams();
  const linked = params.get('export');
  const missing = linked && exportsList.data && !exportsList.data.some((e) => e.id === linked);
  return (
    <Card>
      <CardHeader
        title="Export my data"
        description="A ZIP of your profile, settings, messages and uploaded files. We email you a link when it is ready; it works for 24 hours."
      />
      {missing && <ErrorBanner>{EXPORT_MSG.expired}</ErrorBanner>}
      {exportsList.data && exportsList.data.length > 0 && (
        <ul aria-label="Your exports" className="my-3 space-y-1">
          {exportsList.data.map((e) => (
            <ExportRow key={e.id} item={e} linked={e.id === linked} />
          ))}
        </ul>
      )}
      <Button
        variant="secondary"
        className="mt-2"
        loading={request.isPending}
        onClick={() =>
          request.mutate(undefined, {
            onSuccess: (r) => toast.success(r.detail),
            onError: (error) => toast.error(serverErrorOr(error, 'Failed to start the export')),
          })
        }
      >
        Export my data
      </Button>
    </Card>
  );
}
