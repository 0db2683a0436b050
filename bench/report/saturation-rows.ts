import { fmt, fmtSpread, spread } from '../lib/stats';
import type { ThroughputRun } from '../scenarios/throughput';
import type { Variant } from '../targets';
import { type BudgetRow, COLUMNS, empty, leftOut, median, PEERS, ratioText, times } from './budget-row';
import { AT_ONE_CORE, atLeast, bound, judge, limitedBy, notMeasured } from './checks';
import type { Results } from './results';
import { pairedRatio, quietRuns, values } from './runs';
import { BUDGETS } from './thresholds';

// DESIGN §8's saturation budget, one row per room size: Parley's deliveries/s against both peers, paired run
// by run.
export function saturationRows(results: Results): BudgetRow[] {
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
    const measured = PEERS.filter((v) => rate(v).n);
    const generator = (v: Variant) => median(values(runs, v, (r) => r.generatorCpu));
    const sides = measured.map(
      (v) =>
        `${COLUMNS[v]}: ${limitedBy(median(values(runs, v, (r) => r.cpuPer1000 * r.saturation)) / 1000, generator(v))}`,
    );
    // Deliveries per server CPU-second, Parley ÷ peer: the figure a saturated generator cannot hold down.
    const cpu = (r: ThroughputRun) => 1 / r.cpuPer1000;
    if (measured.some((v) => generator(v) >= AT_ONE_CORE))
      sides.push(
        `per server CPU-second Parley delivers ${ratioText(pairedRatio(runs, 'parley', 'ws', cpu))} bare ws, ` +
          `${ratioText(pairedRatio(runs, 'parley', 'socketio', cpu))} Socket.IO`,
      );
    return {
      what: what(size),
      budget,
      parley: fmtSpread(rate('parley')),
      ws: fmtSpread(rate('ws')),
      socketio: fmtSpread(rate('socketio')),
      ratio: `${ratioText(vsWs)} ws; ${ratioText(vsIo)} Socket.IO`,
      ...judge(checks, notes),
      limitedBy: sides.join('; '),
    };
  });
}
