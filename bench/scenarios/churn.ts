import { cpuBetween, type Mark, runJob } from '../lib/drive';
import type { ChurnResult, Percentiles } from '../load/ipc';
import { startTarget, type Variant } from '../targets';
import type { BenchContext } from './context';

// Connect/disconnect churn: 50 workers each open an authenticated notification socket, wait for its first
// frame, close it politely and start over. The figure is completed cycles per second.
const CONCURRENCY = 50;

export interface ChurnRun {
  variant: Variant;
  rep: number;
  perSecond: number;
  failed: number;
  firstError: string | null;
  setup: Percentiles;
  cpuMsPerConnection: number;
  generatorCpu: number;
}

export async function runChurnOnce(ctx: BenchContext, variant: Variant, rep: number): Promise<ChurnRun> {
  const target = await startTarget(variant, { rooms: 0, membersPerRoom: 0, extraUsers: 1000 }, ctx.services);
  try {
    const seconds = ctx.plan.churnSeconds;
    const { result, marks } = await runJob(
      target,
      {
        mode: 'churn',
        kind: target.kind,
        members: target.loners,
        localAddresses: ctx.localAddresses,
        connectConcurrency: CONCURRENCY,
        concurrency: CONCURRENCY,
        warmupSeconds: 1,
        seconds,
      },
      60_000,
    );
    const r = result as ChurnResult;
    const cpu = marks.length >= 2 ? cpuBetween(marks[0] as Mark, marks[1] as Mark) : Number.NaN;
    return {
      variant,
      rep,
      perSecond: r.perSecond,
      failed: r.failed,
      firstError: r.firstError,
      setup: r.setup,
      cpuMsPerConnection: r.cycles > 0 ? (cpu * 1000) / r.cycles : Number.NaN,
      generatorCpu: r.generatorCpu,
    };
  } finally {
    await target.stop();
  }
}
