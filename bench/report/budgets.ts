import { fmt, fmtSpread, spread } from '../lib/stats';
import type { Variant } from '../targets';
import { type BudgetRow, COLUMNS, empty, median, PEERS, ratioText } from './budget-row';
import { atLeast, atMost, bound, type Check, judge, limitedBy, nothingLost, notMeasured } from './checks';
import { latencyRows } from './latency-rows';
import { channelsRows, historyRow } from './page-rows';
import type { Results } from './results';
import { pairedRatio, values } from './runs';
import { saturationRows } from './saturation-rows';
import { searchRows } from './search-rows';
import { BUDGETS } from './thresholds';

// DESIGN §8, budget by budget: Parley's figure beside its budget and the peers, a verdict computed from the
// numbers with the comparisons that decided it, and which side's CPU limited the figure. Why a figure is what it
// is, is written in where-time-goes.md (the dated notes behind it in bench/findings/), not here.
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
  // The server's open-files limit left room for fewer than the goal: the count cannot be shown on this machine
  // (n/a, unless every one it allowed did not get in, or the memory misses); the memory each is still judged.
  const fdBound = p.attempted < p.goal;
  const count: Check = fdBound
    ? {
        ok: p.connected === p.attempted,
        missing: p.connected === p.attempted,
        text: `${fmt(p.connected)} of the ${fmt(p.attempted)} the fd limit (${fmt(p.fdLimit)}) allowed; ${bound(connections)} not shown here`,
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
    reason: `${small ? `goal ${fmt(p.goal)} < ${bound(connections)}; ` : ''}${judged.reason}${p.machine ? `; measured in ${p.machine}` : ''}`,
    limitedBy: fdBound ? `fd limit (${fmt(p.fdLimit)})` : '',
  };
}

function restartRow(results: Results): BudgetRow {
  const { sockets, reconnectsPerSecond } = BUDGETS.restart;
  const r = results.restart;
  const row = {
    what: 'A process restart under many sockets (SQLite)',
    budget: `${bound(sockets)} sockets all back, ≥ ${bound(reconnectsPerSecond)} reconnections/s, nothing lost or doubled`,
    ...empty,
  };
  if (!r) return { ...row, parley: '–', ...judge([notMeasured('restart')]) };
  const fdBound = r.sockets < r.goal && r.sockets >= r.fdLimit - 512;
  const count: Check = fdBound
    ? {
        ok: r.gaveUp === 0,
        missing: r.gaveUp === 0,
        text: `${fmt(r.sockets - r.gaveUp)} of the ${fmt(r.sockets)} the fd limit (${fmt(r.fdLimit)}) allowed back; ${bound(sockets)} not shown here`,
      }
    : atLeast(r.sockets - r.gaveUp, sockets, { name: 'sockets back', digits: 0, suffix: ' back' });
  const checks = [
    count,
    atLeast(r.reconnectsPerSecond, reconnectsPerSecond, { name: 'reconnections/s', digits: 0, unit: '/s' }),
    nothingLost(r.lost, r.duplicated + r.unsent, 0),
  ];
  const judged = judge(checks, [
    `back ${fmt(r.allBackSeconds, 1)} s after SIGTERM (stop ${fmt(r.stopSeconds, 1)} s, start ${fmt(r.startSeconds, 1)} s, the herd ${fmt(r.herdSeconds, 1)} s)`,
    `${fmt(r.expected)} messages × members checked`,
  ]);
  return {
    ...row,
    parley: `${fmt(r.sockets - r.gaveUp)} back in ${fmt(r.allBackSeconds, 1)} s, ${fmt(r.reconnectsPerSecond)}/s`,
    verdict: r.goal < sockets ? 'n/a' : judged.verdict,
    reason: r.goal < sockets ? `goal ${fmt(r.goal)} < ${bound(sockets)}; ${judged.reason}` : judged.reason,
    limitedBy: fdBound ? `fd limit (${fmt(r.fdLimit)})` : '',
  };
}

function catchUpRow(results: Results): BudgetRow {
  const runs = results.history?.catchUp ?? [];
  const row = {
    what: 'Catch-up after a reconnect: 1,000 missed messages (HTTP)',
    budget: `≤ ${bound(BUDGETS.catchUpServerMs)} ms of server CPU, fetched as the web app does`,
  };
  if (runs.length === 0) return { ...row, parley: '–', ...empty, ...judge([notMeasured('catch-up')]) };
  const cpu = spread(runs.map((r) => r.serverCpuMs));
  const first = runs[0] as (typeof runs)[number];
  return {
    ...row,
    parley: `${fmtSpread(cpu, 1)} ms CPU in ${first.requests} requests`,
    ...empty,
    ...judge(
      [atMost(cpu.median, BUDGETS.catchUpServerMs, { name: 'server CPU', digits: 1, unit: ' ms' })],
      [
        `${fmt(first.missed)} missed and ${fmt(first.loaded)} loaded (read again) fetched; ` +
          `wall ${fmtSpread(spread(runs.map((r) => r.wallMs)), 1)} ms`,
      ],
    ),
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
    restartRow(results),
    historyRow(results),
    catchUpRow(results),
    ...channelsRows(results),
    churnRow(results),
    ...searchRows(results),
    ...webRows(results),
  ].filter((r): r is BudgetRow => r !== null);
}
