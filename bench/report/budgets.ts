import { fmt, fmtSpread, pairedDiffs, pairedRatios, type Spread, spread } from '../lib/stats';
import type { LatencyRun } from '../scenarios/latency';
import type { ThroughputRun } from '../scenarios/throughput';
import type { Variant } from '../targets';
import { atLeast, atMost, bound, type Check, judge, limitedBy, nothingLost, type Verdict } from './checks';
import type { Results } from './results';
import { paired, pairedRatio, quietRuns, values } from './runs';

// DESIGN §8, budget by budget: Parley's figure beside its budget and the peers, a verdict computed from the
// numbers with the comparisons that decided it, and which side's CPU limited the figure. Why a figure is what it
// is, is written in findings.md, not here.

/** DESIGN §8's thresholds: the one place to change when a budget moves. */
export const BUDGETS = {
  /** Saturation, Parley ÷ peer in deliveries/s, paired run by run. */
  saturation: { ws: 0.7, socketio: 1.5 },
  /** p99 delivery latency, 100 rooms × 10 members; nothing may be lost or duplicated. */
  latencyP99Ms: 25,
  /** p99 of two processes over Redis minus one process's, paired run by run. */
  redisExtraP99Ms: 5,
  idle: { connections: 20_000, kibEach: 16 },
  /** History page, Parley ÷ a bare Fastify route with the same JSON, requests/s paired run by run. */
  history: 0.5,
  webInitialKiB: 150,
  webRowsMounted: 120,
} as const;

export type { Verdict } from './checks';

export interface BudgetRow {
  what: string;
  budget: string;
  parley: string;
  ws: string;
  socketio: string;
  ratio: string;
  verdict: Verdict;
  /** The comparisons behind the verdict, from the numbers alone. */
  reason: string;
  /** Which side's CPU was at its ceiling while the figure was measured (where the run records it). */
  limitedBy: string;
}

/** The servers of the budget table's columns. */
export const COLUMNS = { parley: 'Parley', ws: 'bare ws', socketio: 'Socket.IO' } as const;
const PEERS = ['parley', 'ws', 'socketio'] as const;

const times = (digits: number) => ({ digits, unit: ' ×' });
const ratioText = (s: Spread) => (s.n ? `${fmtSpread(s, 2)}×` : '–');
const leftOut = (n: number) => (n ? `${n} contended run${n > 1 ? 's' : ''} left out` : '');
const median = (xs: number[]) => spread(xs).median;
const empty = { ws: '', socketio: '', ratio: '', limitedBy: '' };

function saturationRows(results: Results): BudgetRow[] {
  const sizes = [...new Set(results.throughput.map((r) => r.roomSize))].sort((a, b) => a - b);
  const what = (size?: number) =>
    `Delivered msgs/s at saturation${size ? `, rooms of ${fmt(size)}` : ''} (SQLite)`;
  const budget = `≥ ${bound(BUDGETS.saturation.ws)} × bare ws; ≥ ${bound(BUDGETS.saturation.socketio)} × Socket.IO`;
  if (sizes.length === 0)
    return [{ what: what(), budget, parley: '–', ...empty, ...judge([notMeasured('saturation')]) }];
  return sizes.map((size) => {
    const { runs, left } = quietRuns(results.throughput.filter((r) => r.roomSize === size));
    const sat = (r: ThroughputRun) => r.saturation;
    const rate = (v: Variant) => spread(values(runs, v, sat));
    const vsWs = pairedRatio(runs, 'parley', 'ws', sat);
    const vsIo = pairedRatio(runs, 'parley', 'socketio', sat);
    const checks = [
      atLeast(vsWs.median, BUDGETS.saturation.ws, {
        name: 'ratio to bare ws',
        ...times(2),
        suffix: ' bare ws',
      }),
      atLeast(vsIo.median, BUDGETS.saturation.socketio, {
        name: 'ratio to Socket.IO',
        ...times(2),
        suffix: ' Socket.IO',
      }),
    ];
    const notes: string[] = [];
    // A ratio missed: what each server spent per message in (CPU per delivery × members), and whether the
    // budget's multiple of Socket.IO is above what bare ws itself delivered in this run.
    if (checks.some((c) => !c.ok && !c.missing)) {
      const perMessage = (v: Variant) => fmt(median(values(runs, v, (r) => r.cpuPer1000 * size)), 2);
      notes.push(
        `CPU ms per message in: Parley ${perMessage('parley')}, bare ws ${perMessage('ws')}, Socket.IO ${perMessage('socketio')}`,
      );
    }
    const needed = BUDGETS.saturation.socketio * rate('socketio').median;
    if (!checks[1]?.ok && needed > rate('ws').median)
      notes.push(
        `${bound(BUDGETS.saturation.socketio)} × Socket.IO = ${fmt(needed)}/s > bare ws ${fmt(rate('ws').median)}/s`,
      );
    notes.push(leftOut(left));
    // Cores = CPU seconds per 1,000 deliveries × deliveries/s ÷ 1,000.
    const sides = PEERS.filter((v) => rate(v).n).map((v) => {
      const server = median(values(runs, v, (r) => r.cpuPer1000 * r.saturation)) / 1000;
      return { v, limit: limitedBy(server, median(values(runs, v, (r) => r.generatorCpu))) };
    });
    // Deliveries per server CPU-second, Parley ÷ peer: the figure a saturated generator cannot hold down.
    const cpu = (r: ThroughputRun) => 1 / r.cpuPer1000;
    const perCpu = sides.some((s) => s.limit.startsWith('generator') || s.limit.startsWith('both'))
      ? [
          `per server CPU-second Parley delivers ${ratioText(pairedRatio(runs, 'parley', 'ws', cpu))} bare ws, ` +
            `${ratioText(pairedRatio(runs, 'parley', 'socketio', cpu))} Socket.IO`,
        ]
      : [];
    return {
      what: what(size),
      budget,
      parley: fmtSpread(rate('parley')),
      ws: fmtSpread(rate('ws')),
      socketio: fmtSpread(rate('socketio')),
      ratio: `${ratioText(vsWs)} ws; ${ratioText(vsIo)} Socket.IO`,
      ...judge(checks, notes),
      limitedBy: [...sides.map((s) => `${COLUMNS[s.v]}: ${s.limit}`), ...perCpu].join('; '),
    };
  });
}

function notMeasured(name: string): Check {
  return { ok: false, missing: true, text: `${name} not measured` };
}

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

function latencyRows(results: Results): BudgetRow[] {
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
  return [...rows, redisRow(results)];
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

function idleRow(results: Results): BudgetRow {
  const { connections, kibEach } = BUDGETS.idle;
  const p = results.idle.find((r) => r.variant === 'parley');
  const peer = (v: Variant) => {
    const r = results.idle.find((x) => x.variant === v);
    return r ? `${fmt(r.connected)} at ${fmt(r.kibPerConnection, 1)} KiB` : '–';
  };
  const row = {
    what: 'Idle authenticated connections on one process',
    budget: `≥ ${bound(connections)} at ≤ ${bound(kibEach)} KiB RSS each`,
  };
  if (!p) return { ...row, parley: '–', ...empty, ...judge([notMeasured('idle connections')]) };
  // The server's open-files limit left room for fewer than the goal: every one it allowed must be in.
  const fdBound = p.attempted < p.goal;
  const count: Check = fdBound
    ? {
        ok: p.connected === p.attempted,
        missing: false,
        text: `${fmt(p.connected)} of the ${fmt(p.attempted)} the fd limit (${fmt(p.fdLimit)}) allowed`,
      }
    : atLeast(p.connected, connections, { name: 'connections', digits: 0, suffix: ' connected' });
  const failed: Check = {
    ok: p.failed === 0,
    missing: false,
    text: `${fmt(p.failed)} failed${p.firstError ? ` (${p.firstError})` : ''}`,
  };
  const memory = atMost(p.kibPerConnection, kibEach, { name: 'RSS each', digits: 1, unit: ' KiB' });
  const judged = judge([count, failed, memory], [`heap ${fmt(p.heapKibPerConnection, 1)} KiB each`]);
  const small = p.goal < connections;
  return {
    ...row,
    parley: `${fmt(p.connected)} at ${fmt(p.kibPerConnection, 1)} KiB`,
    ws: peer('ws'),
    socketio: peer('socketio'),
    ratio: '',
    verdict: small ? 'n/a' : judged.verdict,
    reason: small ? `goal ${fmt(p.goal)} < ${bound(connections)}; ${judged.reason}` : judged.reason,
    limitedBy: fdBound ? `fd limit (${fmt(p.fdLimit)})` : '',
  };
}

function historyRow(results: Results): BudgetRow {
  const runs = results.history?.runs ?? [];
  const p = runs.filter((r) => r.server === 'parley');
  const f = runs.filter((r) => r.server === 'fastify');
  const ratios = pairedRatios(
    p.map((r) => r.requestsPerSecond),
    p.map((r) => f.find((x) => x.rep === r.rep)?.requestsPerSecond ?? Number.NaN),
  );
  const errors = p.reduce((n, r) => n + r.errors + r.non2xx, 0);
  // Cores = CPU ms per 1,000 requests × requests/s ÷ 10⁶; autocannon's own CPU is not recorded.
  const cores = (rs: typeof runs) => median(rs.map((r) => (r.cpuMsPer1000 * r.requestsPerSecond) / 1e6));
  const cpuPerRequest = (rs: typeof runs) => fmt(median(rs.map((r) => r.cpuMsPer1000)) / 1000, 2);
  const checks = [
    atLeast(ratios.median, BUDGETS.history, { name: 'paired ratio to bare Fastify', ...times(2) }),
    ...(ratios.n ? [{ ok: errors === 0, missing: false, text: `${fmt(errors)} errors` }] : []),
  ];
  return {
    what: 'History page of 50 messages (HTTP)',
    budget: `≥ ${bound(BUDGETS.history)} × a bare Fastify route with the same JSON`,
    parley: p.length ? `${fmtSpread(spread(p.map((r) => r.requestsPerSecond)))} req/s` : '–',
    ws: f.length ? `bare Fastify: ${fmtSpread(spread(f.map((r) => r.requestsPerSecond)))} req/s` : '',
    socketio: '',
    ratio: ratioText(ratios),
    ...judge(
      checks,
      ratios.n ? [`CPU ms per request: Parley ${cpuPerRequest(p)}, bare Fastify ${cpuPerRequest(f)}`] : [],
    ),
    limitedBy: ratios.n
      ? `Parley: ${limitedBy(cores(p), Number.NaN)}; bare Fastify: ${limitedBy(cores(f), Number.NaN)}; autocannon’s CPU not recorded`
      : '',
  };
}

function churnRow(results: Results): BudgetRow | null {
  const runs = results.churn;
  if (runs.length === 0) return null;
  const rate = (v: Variant) => fmtSpread(spread(values(runs, v, (r) => r.perSecond)));
  const cores = (v: Variant) => median(values(runs, v, (r) => (r.cpuMsPerConnection * r.perSecond) / 1000));
  const perSecond = (r: { perSecond: number }) => r.perSecond;
  return {
    what: 'Connect/disconnect churn (connections/s, authenticated)',
    budget: '— (no budget; reported)',
    parley: rate('parley'),
    ws: rate('ws'),
    socketio: rate('socketio'),
    ratio: `${ratioText(pairedRatio(runs, 'parley', 'ws', perSecond))} ws; ${ratioText(pairedRatio(runs, 'parley', 'socketio', perSecond))} Socket.IO`,
    verdict: 'n/a',
    reason: 'no budget',
    limitedBy: PEERS.filter((v) => runs.some((r) => r.variant === v))
      .map((v) => `${COLUMNS[v]}: ${limitedBy(cores(v), median(values(runs, v, (r) => r.generatorCpu)))}`)
      .join('; '),
  };
}

function webRows(results: Results): BudgetRow[] {
  const w = results.web;
  const size = w
    ? atMost(w.gzipKiB, BUDGETS.webInitialKiB, { name: 'initial JavaScript', digits: 1, unit: ' KiB' })
    : notMeasured('initial JavaScript (apps/web/dist not built)');
  return [
    {
      what: 'Web: initial JavaScript',
      budget: `≤ ${bound(BUDGETS.webInitialKiB)} KiB gzip`,
      parley: w
        ? `${fmt(w.gzipKiB, 1)} KiB (apps/web/dist of ${w.builtAt.slice(0, 16)})`
        : 'apps/web/dist not built',
      ...empty,
      ...judge([size]),
    },
    {
      what: 'Web: a 10,000-message chat',
      budget: `≤ ${bound(BUDGETS.webRowsMounted)} rows mounted, no long tasks`,
      parley: 'measured by the web end-to-end suite, not here',
      ...empty,
      ...judge([notMeasured('rows mounted')]),
    },
  ];
}

export function budgetRows(results: Results): BudgetRow[] {
  return [
    ...saturationRows(results),
    ...latencyRows(results),
    idleRow(results),
    historyRow(results),
    churnRow(results),
    ...webRows(results),
  ].filter((r): r is BudgetRow => r !== null);
}
