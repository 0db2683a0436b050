import { fmt, fmtSpread, pairedDiffs, spread } from '../lib/stats';
import type { LatencyRun } from '../scenarios/latency';
import type { Variant } from '../targets';
import { type BudgetRow, empty, leftOut, median } from './budget-row';
import { atMost, bound, judge, limitedBy, nothingLost, notMeasured } from './checks';
import type { Results } from './results';
import { paired, quietRuns } from './runs';
import { BUDGETS } from './thresholds';

// DESIGN §8's latency budgets: p99 at 500 msg/s on SQLite and PostgreSQL (and, informative, with acknowledging
// clients), and the extra p99 of two processes over Redis, paired run by run.
/** p99 over the runs, what was lost, duplicated or closed early in all of them, and the server's CPU. */
function delivery(runs: LatencyRun[], v: Variant) {
  const mine = runs.filter((r) => r.variant === v);
  const sum = (pick: (r: LatencyRun) => number) => mine.reduce((n, r) => n + pick(r), 0);
  const p99 = spread(mine.map((r) => r.latency.p99));
  const bad = sum((r) => r.lost + r.duplicated + r.closedEarly);
  const cpuMs = median(mine.map((r) => r.cpuPer1000 * 1000));
  // Cores = CPU ms per 1,000 deliveries × deliveries/s ÷ 10⁶.
  const cores = median(mine.map((r) => (r.cpuPer1000 * r.deliveredPerSecond) / 1000));
  const generator = median(mine.map((r) => r.generatorCpu));
  return {
    p99,
    bad,
    rate: mine[0]?.rate,
    cell: p99.n ? `${fmtSpread(p99, 1, ' ms')}; lost+dup ${fmt(bad)}` : '–',
    checks: p99.n
      ? [
          atMost(p99.median, BUDGETS.latencyP99Ms, { name: 'p99', digits: 1, unit: ' ms', prefix: 'p99 ' }),
          nothingLost(
            sum((r) => r.lost),
            sum((r) => r.duplicated),
            sum((r) => r.closedEarly),
          ),
        ]
      : [notMeasured('p99')],
    /** Where a slow p99 would show: the server's CPU, its event loop, and other work on the machine. */
    load:
      `${fmt(cpuMs, 0)} ms CPU per 1,000 deliveries, event-loop delay p99 ${fmt(median(mine.map((r) => r.eldP99 ?? Number.NaN)), 1)} ms, ` +
      `${fmt(median(mine.map((r) => r.background)), 2)} cores of other work`,
    limit: p99.n ? limitedBy(cores, generator, v === 'parley-pg-redis' ? 2 : 1) : '',
  };
}

const atRate = (rate: number | undefined) => (rate ? `, ${fmt(rate)} msg/s in` : '');

export function latencyRows(results: Results): BudgetRow[] {
  const { runs, left } = quietRuns(results.latency);
  const rows: BudgetRow[] = (['parley', 'parley-pg'] as const).map((v) => {
    const d = delivery(runs, v);
    const sqlite = v === 'parley';
    const peer = (p: Variant) => (sqlite ? delivery(runs, p).cell : '');
    const slow = d.checks[0]?.ok === false && !d.checks[0].missing;
    return {
      what: `p99 delivery latency, 100 rooms × 10${atRate(d.rate)} (${sqlite ? 'SQLite' : 'PostgreSQL'})`,
      budget: `≤ ${bound(BUDGETS.latencyP99Ms)} ms, nothing lost or duplicated`,
      parley: d.cell,
      ws: peer('ws'),
      socketio: peer('socketio'),
      ratio: '',
      ...judge(d.checks, [slow ? d.load : '', sqlite ? leftOut(left) : '']),
      limitedBy: d.limit,
    };
  });
  const acks = delivery(runs, 'parley-acks');
  if (acks.p99.n)
    rows.push({
      what: 'Same, with every client acknowledging delivery and read as the web app does (informative)',
      budget: `(≤ ${bound(BUDGETS.latencyP99Ms)} ms if held to the same budget)`,
      parley: acks.cell,
      ...empty,
      reason: judge(acks.checks, [acks.load]).reason,
      verdict: 'n/a',
      limitedBy: acks.limit,
    });
  return [...rows, linksRow(runs), redisRow(results)];
}

/** Delivery with link previews at work against without, paired: within the noise of the plain runs themselves. */
function linksRow(runs: LatencyRun[]): BudgetRow {
  const pair = paired(runs, 'parley-links', 'parley', (r) => r.latency.p99);
  const extra = pairedDiffs(pair.a, pair.b);
  const plain = spread(pair.b);
  const noise = Math.max(BUDGETS.linkPreviewNoiseMs, plain.n ? plain.max - plain.min : 0);
  const links = delivery(runs, 'parley-links');
  const checks = [
    atMost(extra.median, noise, { name: 'paired p99', digits: 1, unit: ' ms', prefix: '+' }),
    ...(pair.a.length ? links.checks.slice(1) : []),
  ];
  return {
    what: 'p99 latency added by link previews, a link in a fifth of the bodies (SQLite, 100 rooms × 10)',
    budget: `within noise: ≤ the plain runs' p99 range, at least ${bound(BUDGETS.linkPreviewNoiseMs)} ms`,
    parley: pair.a.length
      ? `${fmtSpread(extra, 1, ' ms')} (p99 ${fmtSpread(spread(pair.a), 1, ' ms')} vs ${fmtSpread(plain, 1, ' ms')}); lost+dup ${fmt(links.bad)}`
      : '–',
    ...empty,
    ...judge(checks, [links.load]),
    limitedBy: pair.a.length ? links.limit : '',
  };
}

function redisRow(results: Results): BudgetRow {
  const runs = results.redis ?? [];
  const pair = paired(runs, 'parley-pg-redis', 'parley-pg', (r) => r.latency.p99);
  const extra = pairedDiffs(pair.a, pair.b);
  const two = delivery(runs, 'parley-pg-redis');
  const checks = [
    atMost(extra.median, BUDGETS.redisExtraP99Ms, {
      name: 'paired p99',
      digits: 1,
      unit: ' ms',
      prefix: '+',
    }),
    ...(pair.a.length ? two.checks.slice(1) : []),
  ];
  return {
    what: `Extra p99 latency, two processes over Redis vs one (PostgreSQL, 100 rooms × 10${atRate(two.rate)})`,
    budget: `≤ ${bound(BUDGETS.redisExtraP99Ms)} ms`,
    parley: pair.a.length
      ? `${fmtSpread(extra, 1, ' ms')} (p99 ${fmtSpread(spread(pair.a), 1, ' ms')} vs ${fmtSpread(spread(pair.b), 1, ' ms')}); lost+dup ${fmt(two.bad)}`
      : '–',
    ...empty,
    ...judge(checks),
    limitedBy: pair.a.length ? `two processes: ${two.limit}; one: ${delivery(runs, 'parley-pg').limit}` : '',
  };
}
