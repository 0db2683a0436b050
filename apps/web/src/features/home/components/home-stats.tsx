import { abbreviateCount, PLACEHOLDER_MESSAGES, PLACEHOLDER_USERS } from '@parley/protocol';
import { MessagesSquare, Users } from 'lucide-react';
import { useStats } from '../api/get-stats';

/** Users and messages on the platform; SPEC's placeholders until the numbers arrive. */
export function HomeStats() {
  const stats = useStats();
  const items = [
    {
      label: 'Users',
      icon: Users,
      value: stats.data ? abbreviateCount(stats.data.total_users) : PLACEHOLDER_USERS,
    },
    {
      label: 'Messages',
      icon: MessagesSquare,
      value: stats.data ? abbreviateCount(stats.data.total_messages) : PLACEHOLDER_MESSAGES,
    },
  ];
  return (
    <dl aria-busy={stats.isPending || undefined} className="mx-auto grid max-w-md grid-cols-2 gap-3 sm:gap-4">
      {items.map(({ label, icon: Icon, value }) => (
        <div
          key={label}
          className="flex items-center gap-3 rounded-2xl border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 px-4 py-3 shadow-sm sm:px-5 sm:py-4"
        >
          <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-brand-50 dark:bg-brand-500/15 text-brand-600 dark:text-brand-300">
            <Icon aria-hidden="true" className="size-5" />
          </span>
          <div className="flex min-w-0 flex-col-reverse text-left">
            <dt className="text-xs font-medium tracking-wide text-slate-500 dark:text-slate-400 uppercase">
              {label}
            </dt>
            <dd className="text-xl font-semibold tracking-tight text-slate-900 dark:text-slate-100 tabular-nums sm:text-2xl">
              {value}
            </dd>
          </div>
        </div>
      ))}
    </dl>
  );
}
