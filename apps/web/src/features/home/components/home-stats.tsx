import { abbreviateCount, PLACEHOLDER_MESSAGES, PLACEHOLDER_USERS } from '@parley/protocol';
import { MessagesSquare, Users } from 'lucide-react';
import { useT } from '../../../lib/i18n/i18n';
import { useStats } from '../api/get-stats';

/** Users and messages on the platform; SPEC's placeholders until the numbers arrive. */
export function HomeStats() {
  const t = useT();
  const stats = useStats();
  const items = [
    {
      label: t('home.users'),
      icon: Users,
      value: stats.data ? abbreviateCount(stats.data.total_users) : PLACEHOLDER_USERS,
    },
    {
      label: t('home.messages'),
      icon: MessagesSquare,
      value: stats.data ? abbreviateCount(stats.data.total_messages) : PLACEHOLDER_MESSAGES,
    },
  ];
  return (
    <dl aria-busy={stats.isPending || undefined} className="mx-auto grid max-w-md grid-cols-2 gap-3 sm:gap-4">
      {items.map(({ label, icon: Icon, value }) => (
        // A group of one term and its value only (axe: definition-list / dlitem); the icon sits in the term.
        <div
          key={label}
          className="relative flex min-w-0 flex-col-reverse rounded-2xl border border-slate-200 bg-white py-3 pe-4 ps-17 text-start shadow-sm sm:py-4 sm:pe-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase dark:text-slate-400">
            <span
              aria-hidden="true"
              className="absolute top-1/2 start-4 inline-flex size-10 -translate-y-1/2 items-center justify-center rounded-xl bg-brand-50 text-brand-600 dark:bg-brand-500/15 dark:text-brand-300"
            >
              <Icon className="size-5" />
            </span>
            {label}
          </dt>
          <dd className="text-xl font-semibold tracking-tight text-slate-900 tabular-nums sm:text-2xl dark:text-slate-100">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
