import type { AdminStats } from '@parley/protocol';
import { useId } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';
import { useT } from '../../../lib/i18n/i18n';
import { count, storageSize, utcDay } from '../lib/admin-format';

function Tile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 dark:text-slate-100">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{hint}</dd>}
    </div>
  );
}

/**
 * Messages per day as bars, drawn inline (no chart library): 30 bars, a baseline and the peak labelled. A timeline
 * runs left to right in every language, as charts do in right-to-left software too.
 */
export function ActivityChart({ days }: { days: AdminStats['messages_per_day'] }) {
  const t = useT();
  const titleId = useId();
  const peak = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const width = 600;
  const height = 160;
  const gap = 4;
  const bar = (width - gap * (days.length - 1)) / Math.max(1, days.length);
  const first = days[0]?.day;
  const last = days[days.length - 1]?.day;
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height + 4}`}
        role="img"
        aria-labelledby={titleId}
        direction="ltr"
        className="h-auto w-full text-brand-600 dark:text-brand-400"
      >
        <title id={titleId}>
          {t('admin.overview.chartTitle', { days: days.length, total: count(total), peak: count(peak) })}
        </title>
        <line x1={0} x2={width} y1={height} y2={height} className="stroke-slate-300 dark:stroke-slate-700" />
        {days.map((d, i) => {
          const h = Math.round((d.count / peak) * (height - 8));
          return (
            <rect
              key={d.day}
              x={i * (bar + gap)}
              y={height - h}
              width={bar}
              height={Math.max(h, d.count > 0 ? 2 : 0)}
              rx={2}
              fill="currentColor"
            >
              <title>
                {t('admin.overview.dayCount', { day: utcDay(d.day, 'short'), count: count(d.count) })}
              </title>
            </rect>
          );
        })}
      </svg>
      {first && last && (
        <div
          aria-hidden="true"
          dir="ltr"
          className="flex justify-between text-[11px] text-slate-600 dark:text-slate-400"
        >
          <time dateTime={first}>{utcDay(first)}</time>
          <time dateTime={last}>{utcDay(last)}</time>
        </div>
      )}
      <figcaption className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {t('admin.overview.chartCaption', { total, days: days.length, peak: count(peak) })}
      </figcaption>
    </figure>
  );
}

export function OverviewPanel({ stats }: { stats: AdminStats }) {
  const t = useT();
  const { people } = stats;
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile
          label={t('admin.overview.people')}
          value={count(people.total)}
          hint={t('admin.overview.peopleHint', {
            verified: count(people.activated),
            deactivated: count(people.deactivated),
          })}
        />
        <Tile label={t('admin.overview.onlineNow')} value={count(stats.online_now)} />
        <Tile
          label={t('admin.overview.messagesToday')}
          value={count(stats.messages_per_day[stats.messages_per_day.length - 1]?.count ?? 0)}
        />
        <Tile
          label={t('admin.overview.storage')}
          value={storageSize(stats.storage_bytes)}
          hint={t('admin.overview.storageHint')}
        />
      </dl>
      <Card>
        <CardHeader title={t('admin.overview.activity')} description={t('admin.overview.activityHint')} />
        <ActivityChart days={stats.messages_per_day} />
      </Card>
    </>
  );
}
