import { type DataExport, EXPORT_MSG } from '@parley/protocol';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorBanner } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { fileSize, fullDateTime } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';
import { toast } from '../../../lib/ui/toast';
import { downloadExport } from '../api/download-export';
import { useExports } from '../api/list-exports';
import { useRequestExport } from '../api/request-export';
import '../lib/account-texts';

/** A moment as the reader's locale writes it, as a <time>. */
const When = ({ iso }: { iso: string }) => <time dateTime={iso}>{fullDateTime(iso)}</time>;

function ExportRow({ item, linked }: { item: DataExport; linked: boolean }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    downloadExport(item.id)
      .catch((error) =>
        toast.error(
          isApiError(error) && error.status === 404
            ? localText(EXPORT_MSG.expired)
            : serverErrorOr(error, t('account.export.downloadFailed')),
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
        <p className="font-medium text-slate-900 dark:text-slate-100">
          <Slotted text={t('account.export.of', { time: SLOT })}>
            <When iso={item.created_at} />
          </Slotted>
        </p>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {item.status === 'preparing' ? (
            t('account.export.preparing')
          ) : item.status === 'failed' ? (
            localText(EXPORT_MSG.failed)
          ) : (
            <Slotted
              text={
                item.size === null
                  ? t('account.export.availableUntil', { time: SLOT })
                  : t('account.export.availableUntilSize', { time: SLOT, size: fileSize(item.size) })
              }
            >
              <When iso={item.expires_at} />
            </Slotted>
          )}
        </p>
      </div>
      {item.status === 'ready' && (
        <Button variant={linked ? 'primary' : 'secondary'} size="sm" loading={busy} onClick={download}>
          {t('account.export.download')}
        </Button>
      )}
    </li>
  );
}

/** Settings: "Export my data" — a ZIP prepared on request, mailed as a link, downloadable for 24 hours. */
export function DataExportSection() {
  const t = useT();
  const exportsList = useExports();
  const request = useRequestExport();
  const [params] = useSearchParams();
  const linked = params.get('export');
  const missing = linked && exportsList.data && !exportsList.data.some((e) => e.id === linked);
  return (
    <Card>
      <CardHeader title={t('account.export.title')} description={t('account.export.description')} />
      {missing && <ErrorBanner>{localText(EXPORT_MSG.expired)}</ErrorBanner>}
      {exportsList.data && exportsList.data.length > 0 && (
        <ul aria-label={t('account.export.list')} className="my-3 space-y-1">
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
            onSuccess: (r) => toast.success(localText(r.detail)),
            onError: (error) => toast.error(serverErrorOr(error, t('account.export.startFailed'))),
          })
        }
      >
        {t('account.export.request')}
      </Button>
    </Card>
  );
}
