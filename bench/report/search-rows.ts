import { fmt } from '../lib/stats';
import type { SearchDialectRun } from '../scenarios/search';
import type { Timings } from '../search/measure';
import type { BudgetRow } from './budget-row';
import { atMost, bound, judge, limitedBy, notMeasured } from './checks';
import type { Results } from './results';
import { BUDGETS } from './thresholds';

// The message search budgets: the HTTP route's p95 over the 200 queries against its bound per dialect, the LIKE
// scan beside it, and the index's size on disk (reported, no budget).
const DIALECTS = [
  { dialect: 'sqlite', label: 'SQLite', budget: BUDGETS.searchP95Ms.sqlite },
  { dialect: 'postgres', label: 'PostgreSQL', budget: BUDGETS.searchP95Ms.postgres },
] as const;

export const percentiles = (t: Timings) => `p50 ${fmt(t.p50, 1)} / p95 ${fmt(t.p95, 1)} ms`;
export const mib = (bytes: number) => `${fmt(bytes / 1_048_576, 1)} MiB`;

function searchRow(run: SearchDialectRun | undefined, label: string, budget: number): BudgetRow {
  const row = {
    what: `Message search, 1,000,000 messages (${label})`,
    budget: `p95 ≤ ${bound(budget)} ms over 200 queries (HTTP)`,
  };
  if (!run)
    return {
      ...row,
      parley: '–',
      ws: '',
      socketio: '',
      ratio: '',
      ...judge([notMeasured('search p95')]),
      limitedBy: '',
    };
  const { http, sql, like } = run;
  const worst = Object.entries(http.byShape).reduce<[string, number]>(
    (w, [shape, s]) => (s && s.p95 > w[1] ? [shape, s.p95] : w),
    ['', -1],
  );
  return {
    ...row,
    parley: percentiles(http),
    ws: `LIKE '%word%': ${percentiles(like)}`,
    socketio: `index SQL alone: ${percentiles(sql)}`,
    ratio: `${fmt(http.p95 / like.p95, 2)}× LIKE (p95)`,
    ...judge(
      [atMost(http.p95, budget, { name: 'p95', digits: 1, unit: ' ms', prefix: 'p95 ' })],
      [`slowest shape ${worst[0]} (p95 ${fmt(worst[1], 1)} ms)`, `bg ${fmt(http.backgroundCores, 2)} cores`],
    ),
    // One query at a time: the server's cores say how much of each request was its own CPU.
    limitedBy:
      http.serverCpuSeconds === null ? '' : limitedBy(http.serverCpuSeconds / http.seconds, Number.NaN),
  };
}

function indexRow(runs: SearchDialectRun[]): BudgetRow | null {
  if (runs.length === 0) return null;
  const text = (r: SearchDialectRun) =>
    `${r.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} ${mib(r.index.indexBytesPerMillion)} (${fmt((100 * r.index.indexBytes) / r.index.withoutBytes)}% of ${mib(r.index.withoutBytes)})`;
  return {
    what: 'Search index on disk per 1,000,000 messages',
    budget: '— (no budget; reported)',
    parley: runs.map(text).join('; '),
    ws: '',
    socketio: '',
    ratio: '',
    verdict: 'n/a',
    reason: 'no budget',
    limitedBy: '',
  };
}

export function searchRows(results: Results): BudgetRow[] {
  const runs = results.search?.runs ?? [];
  return [
    ...DIALECTS.map((d) =>
      searchRow(
        runs.find((r) => r.dialect === d.dialect),
        d.label,
        d.budget,
      ),
    ),
    indexRow(runs),
  ].filter((r): r is BudgetRow => r !== null);
}
