import { InfoNote } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';

/** The ten recovery codes, shown once right after two-step sign-in is turned on. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const t = useT();
  const copy = () =>
    navigator.clipboard
      .writeText(codes.join('\n'))
      .then(() => toast.success(t('account.recovery.copied')))
      .catch(() => toast.error(t('account.recovery.copyFailed')));
  return (
    <div className="space-y-3">
      <InfoNote>{t('account.recovery.keep')}</InfoNote>
      <ul
        aria-label={t('account.recovery.list')}
        translate="no"
        dir="ltr"
        className="grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-3 font-mono text-sm text-slate-900 dark:bg-slate-950 dark:text-slate-100"
      >
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <div className="flex gap-2">
        <Button variant="secondary" onClick={copy}>
          {t('account.recovery.copy')}
        </Button>
        <Button onClick={onDone}>{t('account.recovery.done')}</Button>
      </div>
    </div>
  );
}
