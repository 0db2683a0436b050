import { ArrowDown } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';

/** Above the first message that was unread when the room opened. */
export function UnreadDivider() {
  const t = useT();
  return (
    <div className="flex items-center gap-3 px-4 py-2" data-testid="unread-divider">
      <span aria-hidden="true" className="h-px flex-1 bg-brand-200" />
      <span className="text-xs font-semibold tracking-wide text-brand-700 dark:text-brand-200 uppercase">
        {t('room.list.newMessages')}
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-brand-200" />
    </div>
  );
}

/**
 * Shown while the reader is scrolled up: back to the newest message, with how many below are new. Its name is
 * its text ('Jump to latest 3 newer messages': the badge's number is seen, the count in words is for screen
 * readers only), so what is seen is what is said.
 */
export function JumpToLatest({ count, onClick }: { count: number; onClick: () => void }) {
  const t = useT();
  return (
    <button
      type="button"
      onClick={onClick}
      title={t('room.list.jump')}
      className="absolute end-4 bottom-3 z-10 inline-flex items-center gap-1.5 rounded-full border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 px-3 py-1.5 text-sm font-medium text-slate-700 dark:text-slate-300 shadow-md hover:bg-slate-50 dark:hover:bg-slate-800"
    >
      <ArrowDown aria-hidden="true" className="size-4" />
      {t('room.list.jump')}
      {count > 0 && (
        <>
          <span
            aria-hidden="true"
            className="min-w-5 rounded-full bg-brand-600 px-1.5 text-center text-xs leading-5 text-white"
          >
            {count}
          </span>
          <span className="sr-only"> {t('room.list.newer', { count })}</span>
        </>
      )}
    </button>
  );
}
