import { BadgeCheck } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';

/** The verified mark with a 'Verified Account' tooltip on hover and on keyboard focus. */
export function VerifiedIcon({ className }: { className?: string }) {
  const t = useT();
  return (
    <span
      role="img"
      aria-label={t('profile.verified')}
      // Focusable so keyboard users can read the tooltip too.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a tooltip trigger must take focus
      tabIndex={0}
      className={cn('group relative inline-flex shrink-0 rounded-full text-sky-500', className)}
    >
      <BadgeCheck aria-hidden="true" className="size-full" />
      <span
        aria-hidden="true"
        className="pointer-events-none absolute bottom-full left-1/2 z-10 mb-1.5 -translate-x-1/2 rounded-md bg-slate-900 px-2 py-1 text-xs font-medium whitespace-nowrap text-white opacity-0 shadow transition-opacity group-hover:opacity-100 group-focus-visible:opacity-100"
      >
        {t('profile.verified')}
      </span>
    </span>
  );
}

/** A 'Verified Account' pill, for the own profile. */
export function VerifiedPill({ className }: { className?: string }) {
  const t = useT();
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full bg-sky-50 px-2.5 py-0.5 text-xs font-medium text-sky-700 ring-1 ring-sky-200 ring-inset',
        className,
      )}
    >
      <BadgeCheck aria-hidden="true" className="size-3.5" />
      {t('profile.verified')}
    </span>
  );
}
