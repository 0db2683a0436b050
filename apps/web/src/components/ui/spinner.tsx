import { t } from '../../lib/i18n/i18n';
import { cn } from '../../lib/ui/cn';

export function Spinner({ size = 'md', className }: { size?: 'sm' | 'md' | 'lg'; className?: string }) {
  const dims = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' }[size];
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-block animate-spin rounded-full border-current border-r-transparent',
        dims,
        className,
      )}
    />
  );
}

/** A centred spinner with a text, for a screen or a section that is loading. */
export function LoadingState({
  label = t('ui.loading'),
  fullPage = false,
}: {
  label?: string;
  fullPage?: boolean;
}) {
  return (
    <div
      role="status"
      aria-live="polite"
      className={cn(
        'flex flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400',
        fullPage ? 'flex-1 py-24' : 'py-16',
      )}
    >
      <Spinner size="lg" className="text-brand-600 dark:text-brand-300" />
      <p className="text-sm font-medium">{label}</p>
    </div>
  );
}
