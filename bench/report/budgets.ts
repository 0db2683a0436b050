import { fmt, fmtSpread, pairedRatios, spread } from '../lib/stats';
import type { Variant } from '../targets';
import { type BudgetRow, COLUMNS, empty, median, PEERS, ratioText, times } from './budget-row';
import { atLeast, atMost, bound, type Check, judge, limitedBy, notMeasured } from './checks';
import { latencyRows } from './latency-rows';
import type { Results } from './results';
import { pairedRatio, values } from './runs';
import { saturationRows } from './saturation-rows';
import { searchRows } from './search-rows';
import { BUDGETS } from './thresholds';

// DESIGN §8, budget by budget: Parley's figure beside its budget and the peers, a verdict computed from the
// numbers with the comparisons that decided it, and which side's CPU limited the figure. Why a figure is what it
// is, is written in findings.md, not here.
export { type BudgetRow, COLUMNS } from './budget-row';
export type { Verdict } from './checks';
export { BUDGETS } from './thresholds';

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
    ...searchRows(results),
    ...webRows(results),
  ].filter((r): r is BudgetRow => r !== null);
}
