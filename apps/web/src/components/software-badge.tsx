import { useT } from '../lib/i18n/i18n';

/**
 * 'Bot' or 'App' beside a name: people see that software wrote it or is in the chat (a bot user, an incoming
 * webhook). Small and quiet, readable in both themes.
 */
export function SoftwareBadge({ label }: { label: 'Bot' | 'App' }) {
  const t = useT();
  return (
    <span className="shrink-0 rounded bg-slate-200 px-1 text-[0.6875rem] font-semibold leading-4 text-slate-800 dark:bg-slate-700 dark:text-slate-100">
      {t(label === 'Bot' ? 'general.badge.bot' : 'general.badge.app')}
    </span>
  );
}
