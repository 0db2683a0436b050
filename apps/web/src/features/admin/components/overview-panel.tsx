import type { AdminStats } from '@parley/protocol';
import { useId } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';

const number = new Intl.NumberFormat();

/** Bytes as people read them: 1.2 MB. */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} bytes` : `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

function Tile({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-slate-900 dark:text-slate-100">{value}</dd>
      {hint && <dd className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">{hint}</dd>}
    </div>
  );
}

/** Messages per day as bars, drawn inline (no chart library): 30 bars, a baseline and the peak labelled. */
export function ActivityChart({ days }: { days: AdminStats['messages_per_day'] }) {
  const titleId = useId();
  const peak = Math.max(1, ...days.map((d) => d.count));
  const total = days.reduce((sum, d) => sum + d.count, 0);
  const width = 600;
  const height = 160;
  const gap = 4;
  const bar = (width - gap * (days.length - 1)) / Math.max(1, days.length);
  return (
    <figure>
      <svg
        viewBox={`0 0 ${width} ${height + 20}`}
        role="img"
        aria-labelledby={titleId}
        className="h-auto w-full text-brand-600 dark:text-brand-400"
      >
        <title id={titleId}>
          {`Messages per day over the last ${days.length} days: ${number.format(total)} in all, at most ${number.format(peak)} in a day.`}
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
              <title>{`${d.day}: ${number.format(d.count)}`}</title>
            </rect>
          );
        })}
        <text x={0} y={height + 16} className="fill-slate-600 text-[11px] dark:fill-slate-400">
          {days[0]?.day}
        </text>
        <text
          x={width}
          y={height + 16}
          textAnchor="end"
          className="fill-slate-600 text-[11px] dark:fill-slate-400"
        >
          {days[days.length - 1]?.day}
        </text>
      </svg>
      <figcaption className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        {number.format(total)} messages in the last {days.length} days; the busiest day had{' '}
        {number.format(peak)}.
      </figcaption>
    </figure>
  );
}

export function OverviewPanel({ stats }: { stats: AdminStats }) {
  const { people } = stats;
  return (
    <>
      <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
        <Tile
          label="People"
          value={number.format(people.total)}
          hint={`${number.format(people.activated)} verified, ${number.format(people.deactivated)} deactivated`}
        />
        <Tile label="Online now" value={number.format(stats.online_now)} />
        <Tile
          label="Messages today"
          value={number.format(stats.messages_per_day[stats.messages_per_day.length - 1]?.count ?? 0)}
        />
        <Tile label="Storage used" value={formatBytes(stats.storage_bytes)} hint="Uploads and pictures" />
      </dl>
      <Card>
        <CardHeader title="Activity" description="People's messages per day (UTC)." />
        <ActivityChart days={stats.messages_per_day} />
      </Card>
    </>
  );
}
