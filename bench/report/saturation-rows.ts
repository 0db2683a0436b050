import { fmt, fmtSpread, spread } from '../lib/stats';
import type { ThroughputRun } from '../scenarios/throughput';
import type { Variant } from '../targets';
import { type BudgetRow, COLUMNS, empty, leftOut, median, ratioText, times } from './budget-row';
import { AT_ONE_CORE, atLeast, bound, type Check, judge, limitedBy, notMeasured } from './checks';
import type { Results } from './results';
import { pairedRatio, quietRuns, values } from './runs';
import { BUDGETS } from './thresholds';

// DESIGN §8's saturation budget, one row per room size, paired run by run: Parley against the optimal ws peer
// in deliveries/s and in deliveries per server CPU-second (from the same runs), and against Socket.IO in
// deliveries/s; the naive ws peer and the store floor (the optimal peer keeping every message in SQLite first)
// beside them for reference. A run whose busiest generator process was at its core measured the generator, not
// the server: its deliveries/s are left out of the ratios.
const SERVERS = ['parley', 'ws', 'socketio', 'naive-ws', 'ws-sqlite'] as const;

/** The busiest generator process of a run (results from before several processes: the one). */
const busiest = (r: ThroughputRun) => r.busiestGeneratorCpu ?? r.generatorCpu;
export const generatorLimited = (r: ThroughputRun) => busiest(r) >= AT_ONE_CORE;
const serverCores = (r: ThroughputRun) => r.cpuPer1000 * r.saturation;
const sat = (r: ThroughputRun) => r.saturation;
/** Deliveries per server CPU-second. */
const efficiency = (r: ThroughputRun) => 1 / r.cpuPer1000;

/** Parley ÷ `peer` in deliveries/s, from the pairs whose generators were not at their core. */
function deliveriesCheck(runs: ThroughputRun[], peer: Variant, floor: number, name: string) {
  const all = pairedRatio(runs, 'parley', peer, sat);
  const free = pairedRatio(
    runs.filter((r) => !generatorLimited(r)),
    'parley',
    peer,
    sat,
  );
  const shown = { name: `deliveries/s ratio to ${name}`, ...times(2), suffix: ` ${name}` };
  const check: Check =
    all.n > 0 && free.n === 0
      ? { ok: false, missing: true, text: `${name}: a generator was at its core in every pair, not judged` }
      : atLeast(free.median, floor, shown);
  // Some pairs kept, some left out: how many of which peer's (when none is kept, the check says so).
  const leftOut = all.n - free.n;
  const note =
    leftOut && free.n
      ? `${leftOut} of ${all.n} pairs with ${name} left out of deliveries/s (a generator at its core)`
      : '';
  return { check, ratio: free.n ? free : all, note };
}

/** A step keeps up when it delivers at least this share of what it offers. */
const KEEPING_UP = 0.9;

/**
 * Parley's and `peer`'s server CPU per 1,000 deliveries at the same offered rate: the highest step both ramps
 * shared in one repetition (the first ramp is the same for every server) while both kept up. CPU per delivery
 * falls as a server falls behind (more frames per read and per write), so each server at its own saturation
 * compares load levels as much as work; at one rate it compares work. Null when no such step was recorded.
 */
export function atSameLoad(runs: ThroughputRun[], peer: Variant) {
  const keptUp = (r: ThroughputRun) =>
    new Map(
      r.steps
        .filter((s) => s.cpuMsPer1000 !== undefined && s.delivered >= KEEPING_UP * s.rate * r.roomSize)
        .map((s) => [s.rate, s.cpuMsPer1000 as number]),
    );
  let best: { rate: number; parley: number; peer: number; rep: number } | null = null;
  for (const mine of runs.filter((r) => r.variant === 'parley')) {
    const theirs = runs.find((r) => r.variant === peer && r.rep === mine.rep);
    if (!theirs) continue;
    const other = keptUp(theirs);
    for (const [rate, cpu] of keptUp(mine)) {
      const peerCpu = other.get(rate);
      if (peerCpu !== undefined && (!best || rate > best.rate))
        best = { rate, parley: cpu, peer: peerCpu, rep: mine.rep };
    }
  }
  return best;
}

export function saturationRows(results: Results): BudgetRow[] {
  const sizes = [...new Set(results.throughput.map((r) => r.roomSize))].sort((a, b) => a - b);
  const what = (size?: number) =>
    `Delivered msgs/s at saturation${size ? `, rooms of ${fmt(size)}` : ''} (SQLite)`;
  const budget =
    `≥ ${bound(BUDGETS.saturation.ws)} × bare ws (optimal) in deliveries/s and in deliveries per server ` +
    `CPU-second; ≥ ${bound(BUDGETS.saturation.socketio)} × Socket.IO`;
  if (sizes.length === 0)
    return [{ what: what(), budget, parley: '–', ...empty, ...judge([notMeasured('saturation')]) }];
  return sizes.map((size) => {
    const { runs, left } = quietRuns(results.throughput.filter((r) => r.roomSize === size));
    const rate = (v: Variant) => spread(values(runs, v, sat));
    const cpuMs = (v: Variant) => spread(values(runs, v, (r) => r.cpuPer1000 * 1000));
    const cell = (v: Variant) =>
      rate(v).n ? `${fmtSpread(rate(v))}/s; ${fmtSpread(cpuMs(v), 1)} CPU ms / 1k` : '–';
    const vsWs = deliveriesCheck(runs, 'ws', BUDGETS.saturation.ws, 'bare ws');
    const vsIo = deliveriesCheck(runs, 'socketio', BUDGETS.saturation.socketio, 'Socket.IO');
    const cpuVsWs = pairedRatio(runs, 'parley', 'ws', efficiency);
    const perCpu = atLeast(cpuVsWs.median, BUDGETS.saturation.ws, {
      name: 'CPU ratio to bare ws',
      ...times(2),
      prefix: 'per server CPU-second ',
      suffix: ' bare ws',
    });
    const cpuText = cpuVsWs.n
      ? ` (server CPU ms per 1,000 deliveries: Parley ${fmt(cpuMs('parley').median, 1)}, bare ws ${fmt(cpuMs('ws').median, 1)})`
      : '';
    const checks = [vsWs.check, { ...perCpu, text: `${perCpu.text}${cpuText}` }, vsIo.check];
    const same = atSameLoad(runs, 'ws');
    const notes = [
      vsWs.note,
      vsIo.note,
      same
        ? `at the same offered load (${fmt(same.rate)} msgs/s in, rep ${same.rep}, both keeping up) server CPU ms ` +
          `per 1,000 deliveries: Parley ${fmt(same.parley, 1)}, bare ws ${fmt(same.peer, 1)}, ` +
          `${fmt(same.peer / same.parley, 2)} × per CPU-second (for reference, not judged)`
        : '',
    ];
    const needed = BUDGETS.saturation.socketio * rate('socketio').median;
    if (!vsIo.check.ok && !vsIo.check.missing && needed > rate('ws').median)
      notes.push(
        `${bound(BUDGETS.saturation.socketio)} × Socket.IO = ${fmt(needed)}/s > bare ws ${fmt(rate('ws').median)}/s`,
      );
    notes.push(leftOut(left));
    const cores = results.machine.cores;
    const sides = SERVERS.filter((v) => rate(v).n).map((v) => {
      const mine = runs.filter((r) => r.variant === v);
      const server = median(mine.map(serverCores)) / 1000;
      const generator = median(mine.map((r) => r.generatorCpu));
      return `${COLUMNS[v]}: ${limitedBy(server, generator, 1, {
        generators: Math.max(...mine.map((r) => r.generators ?? 1)),
        busiestGenerator: median(mine.map(busiest)),
        machine: { busy: server + generator + median(mine.map((r) => r.background)), cores },
      })}`;
    });
    return {
      what: what(size),
      budget,
      parley: cell('parley'),
      ws: cell('ws'),
      socketio: cell('socketio'),
      naive: rate('naive-ws').n ? cell('naive-ws') : '',
      ratio:
        `${ratioText(vsWs.ratio)} ws, ${ratioText(cpuVsWs)} per CPU-second; ` +
        `${ratioText(vsIo.ratio)} Socket.IO` +
        (rate('naive-ws').n ? `; ${ratioText(pairedRatio(runs, 'parley', 'naive-ws', sat))} naive ws` : '') +
        (rate('ws-sqlite').n
          ? `; ${ratioText(pairedRatio(runs, 'parley', 'ws-sqlite', sat))} ws + SQLite (the store floor, itself ` +
            `${ratioText(pairedRatio(runs, 'ws-sqlite', 'ws', sat))} ws)`
          : ''),
      ...judge(checks, notes),
      limitedBy: sides.join('; '),
    };
  });
}
