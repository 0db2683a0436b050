import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';

/** A green (online) or grey (offline) dot with its word beside it. */
export function PresenceLabel({ online, className }: { online: boolean; className?: string }) {
  const t = useT();
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-sm', className)}>
      <span
        aria-hidden="true"
        className={cn('size-2.5 rounded-full', online ? 'bg-emerald-500' : 'bg-slate-300 dark:bg-slate-600')}
      />
      <span
        className={
          online ? 'font-medium text-emerald-700 dark:text-emerald-300' : 'text-slate-500 dark:text-slate-400'
        }
      >
        {online ? t('profile.online') : t('profile.offline')}
      </span>
    </span>
  );
}
