import { MessageSquareText } from 'lucide-react';
import { cn } from '../lib/ui/cn';

/** The Parley mark and name (a name, never translated); `compact`: the mark alone on a phone, where a crowded header needs the room. */
export function Logo({
  size = 'md',
  compact = false,
  className,
}: {
  size?: 'md' | 'lg';
  compact?: boolean;
  className?: string;
}) {
  const large = size === 'lg';
  return (
    <span
      className={cn(
        'inline-flex items-center gap-2 font-semibold tracking-tight text-slate-900 dark:text-slate-100',
        className,
      )}
    >
      <span
        aria-hidden="true"
        className={cn(
          'inline-flex items-center justify-center rounded-xl bg-brand-600 text-white shadow-sm',
          large ? 'size-11' : 'size-8',
        )}
      >
        <MessageSquareText className={large ? 'size-6' : 'size-4.5'} />
      </span>
      <span className={cn(large ? 'text-2xl' : 'text-lg', compact && 'max-sm:hidden')} translate="no">
        Parley
      </span>
    </span>
  );
}
