import { cpuBetween, type Mark, runSharedRateJob, worstEld } from '../lib/drive';
import { AT_ONE_CORE } from '../report/checks';
import { startTarget, type Variant } from '../targets';
import type { BenchContext } from './context';

// Saturation: an open-loop ramp until a step delivers under 90% of what it offered or its
// arrivals' p99 passes 1 s. The figure is the most deliveries per second any step achieved.
export interface ThroughputRun {
  variant: Variant;
  roomSize: number;
  rooms: number;
  rep: number;
  /** Deliveries per second (messages × recipients) at saturation. */
  saturation: number;
  /** Messages per second in at that step. */
  inputRate: number;
  cpuPer1000: number;
  eldP99: number | null;
  rssMiB: number;
  /** The generators' CPU in cores, summed over their processes… */
  generatorCpu: number;
  /** …how many processes shared the rooms (absent from results before there were several: one)… */
  generators?: number;
  /** …and the busiest one's: at one core, that generator was the ceiling. */
  busiestGeneratorCpu?: number;
  generatorBound: boolean;
  /** Cores busy with work that was neither the server nor the generator during that step. */
  background: number;
  /**
   * Each step's length, and its first seconds whose arrivals were not counted (the queue settling at the new
   * rate); absent from results before steps settled (1.5 s steps, 1 s in a quick run, all counted).
   */
  step?: { seconds: number; settleSeconds: number };
  steps: {
    rate: number;
    delivered: number;
    p99: number;
    generatorCpu: number;
    busiestGeneratorCpu?: number;
    /**
     * The server's CPU ms per 1,000 deliveries in this step (absent before it was recorded). It falls as the load
     * rises, for every server: more frames are read per wake-up and written per system call.
     */
    cpuMsPer1000?: number;
  }[];
  lost: number;
  duplicated: number;
  closedEarly: number;
  connectSeconds: number;
}

/**
 * The ramp: a coarse one (×2 from a cautious guess) the first time a server and room size are measured; later
 * repetitions start at 0.6 × what the first found and climb ×1.25, so they spend their steps near saturation.
 */
function rampFor(previous: number | undefined, size: number, stepSeconds: number, settleSeconds: number) {
  const first = previous
    ? Math.max(1, Math.round((previous / size) * 0.6))
    : Math.max(4, Math.round(8000 / size));
  const factor = previous ? 1.25 : 2;
  return {
    warmup: { rate: first, seconds: 1 },
    phases: Array.from({ length: 7 }, (_, i) => ({
      rate: Math.round(first * factor ** i),
      seconds: stepSeconds,
      settleSeconds,
    })),
  };
}

export async function runThroughputOnce(
  ctx: BenchContext,
  variant: Variant,
  layout: { size: number; rooms: number },
  rep: number,
  previous: number | undefined,
): Promise<ThroughputRun> {
  const target = await startTarget(
    variant,
    { rooms: layout.rooms, membersPerRoom: layout.size },
    ctx.services,
  );
  try {
    const ramp = rampFor(previous, layout.size, ctx.plan.stepSeconds, ctx.plan.settleSeconds);
    const {
      result: r,
      marks,
      settled,
      generators,
    } = await runSharedRateJob(
      target,
      {
        mode: 'rate',
        kind: target.kind,
        rooms: target.rooms,
        bodyBytes: 100,
        localAddresses: ctx.localAddresses,
        connectConcurrency: 64,
        ...ramp,
        stopWhenSaturated: true,
        drainSeconds: 3,
      },
      ctx.plan.generators,
      300_000,
    );
    // Phase i (0 = warm-up) runs from mark i to mark i + 1.
    const measured = r.phases.slice(1);
    let best = 0;
    for (let i = 1; i < measured.length; i++)
      if ((measured[i]?.deliveredPerSecond ?? 0) > (measured[best]?.deliveredPerSecond ?? 0)) best = i;
    /**
     * The server's CPU seconds per 1,000 deliveries in phase i + 1 (NaN when it delivered nothing), over the window
     * its deliveries were counted in: from the end of its settling (the catch-up of a step behind is not charged to
     * the deliveries counted after it) to the next mark.
     */
    const cpuPer1000 = (i: number) => {
      const [start, end] = [settled[i + 1] ?? marks[i + 1], marks[i + 2]];
      const delivered =
        start && end ? ((measured[i]?.deliveredPerSecond ?? 0) * (end.at - start.at)) / 1000 : 0;
      return start && end && delivered > 0 ? cpuBetween(start, end) / (delivered / 1000) : Number.NaN;
    };
    const step = measured[best];
    const from = marks[best + 1] as Mark;
    const to = marks[best + 2] as Mark;
    const seconds = (to.at - from.at) / 1000;
    const cpu = cpuBetween(from, to);
    const generatorCpu = step?.generatorCpu ?? 0;
    const busiestGeneratorCpu = step?.busiestGeneratorCpu ?? generatorCpu;
    return {
      variant,
      roomSize: layout.size,
      rooms: layout.rooms,
      rep,
      saturation: step?.deliveredPerSecond ?? 0,
      inputRate: step?.rate ?? 0,
      cpuPer1000: cpuPer1000(best),
      eldP99: worstEld(to)?.p99 ?? null,
      rssMiB: Math.max(...to.rss) / 2 ** 20,
      generatorCpu,
      generators,
      busiestGeneratorCpu,
      generatorBound: busiestGeneratorCpu >= AT_ONE_CORE,
      background: Math.max(0, (to.machine - from.machine - cpu) / seconds - generatorCpu),
      step: { seconds: ctx.plan.stepSeconds, settleSeconds: ctx.plan.settleSeconds },
      steps: measured.map((p, i) => {
        const cpuSeconds = cpuPer1000(i);
        return {
          rate: p.rate,
          delivered: Math.round(p.deliveredPerSecond),
          p99: p.arrivalLatency.p99,
          generatorCpu: Math.round(p.generatorCpu * 100) / 100,
          busiestGeneratorCpu: Math.round(p.busiestGeneratorCpu * 100) / 100,
          cpuMsPer1000: Number.isNaN(cpuSeconds) ? undefined : Math.round(cpuSeconds * 10000) / 10,
        };
      }),
      lost: r.lost,
      duplicated: r.duplicated,
      closedEarly: r.closedEarly,
      connectSeconds: r.connectSeconds,
    };
  } finally {
    await target.stop();
  }
}
