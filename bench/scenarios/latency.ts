import { cpuBetween, type Mark, runJob, worstEld } from '../lib/drive';
import type { Percentiles, RateResult } from '../load/ipc';
import { startTarget, type Variant } from '../targets';
import type { BenchContext } from './context';

// DESIGN §8's latency case: 100 rooms × 10 members, 500 messages/s in (5,000 deliveries/s), open loop; and the
// same rooms at a lower rate for one process against two over Redis.
export const LATENCY_LAYOUT = { rooms: 100, membersPerRoom: 10 };
export const LATENCY_RATE = 500;
/**
 * The Redis comparison runs at a lower rate: at 500 msg/s two Parley processes, PostgreSQL, Redis and the
 * generator need more than this machine's two cores, and the figure would be CPU exhaustion, not the hop.
 */
export const REDIS_RATE = 200;

export interface LatencyRun {
  variant: Variant;
  rep: number;
  /** Messages per second in. */
  rate: number;
  latency: Percentiles;
  deliveredPerSecond: number;
  expected: number;
  lost: number;
  duplicated: number;
  errorFrames: number;
  closedEarly: number;
  cpuPer1000: number;
  eldP99: number | null;
  eldMax: number | null;
  rssMiB: number;
  generatorCpu: number;
  background: number;
  /** The HDR histogram of the measured phase (µs), hdr-histogram-js compressed base64. */
  histogram: string;
}

export async function runLatencyOnce(
  ctx: BenchContext,
  variant: Variant,
  rep: number,
  rate = LATENCY_RATE,
): Promise<LatencyRun> {
  const target = await startTarget(variant, LATENCY_LAYOUT, ctx.services);
  try {
    const { result, marks } = await runJob(
      target,
      {
        mode: 'rate',
        kind: target.kind,
        rooms: target.rooms,
        bodyBytes: 100,
        linkBase: target.linkBase,
        localAddresses: ctx.localAddresses,
        connectConcurrency: 64,
        warmup: { rate, seconds: ctx.plan.latencyWarmupSeconds },
        phases: [{ rate, seconds: ctx.plan.latencySeconds }],
        stopWhenSaturated: false,
        acks: variant === 'parley-acks',
        drainSeconds: 6,
      },
      120_000,
    );
    const r = result as RateResult;
    const phase = r.phases[1];
    const from = marks[1] as Mark;
    const to = marks[2] as Mark;
    const seconds = (to.at - from.at) / 1000;
    const cpu = cpuBetween(from, to);
    const delivered = (phase?.deliveredPerSecond ?? 0) * seconds;
    const eld = worstEld(to);
    return {
      variant,
      rep,
      rate,
      latency: phase?.latency as Percentiles,
      deliveredPerSecond: phase?.deliveredPerSecond ?? 0,
      expected: r.expected,
      lost: r.lost,
      duplicated: r.duplicated,
      errorFrames: r.errorFrames,
      closedEarly: r.closedEarly,
      cpuPer1000: delivered > 0 ? cpu / (delivered / 1000) : Number.NaN,
      eldP99: eld?.p99 ?? null,
      eldMax: eld?.max ?? null,
      rssMiB: Math.max(...to.rss) / 2 ** 20,
      generatorCpu: phase?.generatorCpu ?? 0,
      background: Math.max(0, (to.machine - from.machine - cpu) / seconds - (phase?.generatorCpu ?? 0)),
      histogram: r.histogram,
    };
  } finally {
    await target.stop();
  }
}
