import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type {
  GeneratorMessage,
  Job,
  JobResult,
  PhaseResult,
  RateJob,
  RateResult,
  RunnerMessage,
} from '../load/ipc';
import { mergePhases, mergeResults, shareOf } from '../load/merge';
import { saturatedStep } from '../load/rate-job';
import type { Target } from '../targets';
import { machineBusySeconds } from './machine';
import { benchDir, cpuSeconds, rssBytes, tsxFlags } from './proc';
import { type EventLoopDelay, probe } from './stats-probe';

// Runs a load-generator process against a target and samples the target's processes at every mark.

/** The server's processes at a mark: CPU seconds and RSS each, and the event-loop delay since the previous mark. */
export interface Mark {
  label: string;
  at: number;
  cpu: number[];
  rss: number[];
  eld: (EventLoopDelay | null)[];
  /** Busy CPU seconds of the whole machine (all cores) since boot. */
  machine: number;
}

export interface Generator {
  child: ChildProcess;
  send(m: RunnerMessage): void;
  exited: Promise<void>;
}

export function forkGenerator(onMessage: (m: GeneratorMessage) => void): Generator {
  const child = fork(path.join(benchDir, 'load/generator.ts'), [], {
    execArgv: [...tsxFlags],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child.on('message', (m) => onMessage(m as GeneratorMessage));
  return {
    child,
    send: (m) => child.send(m),
    exited: new Promise((r) => child.once('exit', () => r())),
  };
}

/** Event-loop delay of each of the target's processes since it was last asked. */
const probeAll = (target: Target) =>
  Promise.all(
    target.procs.map(
      async (p, i) => (await probe(p.pid, target.statsFiles[i] as string, 'eld'))?.eld ?? null,
    ),
  );

/** CPU, RSS and machine time, read now. */
function snapshot(target: Target, label: string): Omit<Mark, 'eld'> {
  return {
    label,
    at: performance.now(),
    cpu: target.procs.map((p) => cpuSeconds(p.pid)),
    rss: target.procs.map((p) => rssBytes(p.pid)),
    machine: machineBusySeconds(),
  };
}

/** Runs one rate or churn job to its result, with a mark sampled wherever the generator asks for one. */
export async function runJob(
  target: Target,
  job: Job,
  timeoutMs: number,
): Promise<{ result: JobResult; marks: Mark[] }> {
  const marks: Mark[] = [];
  let sampling = Promise.resolve();
  let settle: (v: { result: JobResult } | { error: string }) => void = () => {};
  const outcome = new Promise<{ result: JobResult } | { error: string }>((r) => {
    settle = r;
  });
  const gen = forkGenerator((m) => {
    if (m.type === 'mark') {
      // The counters are read at once; the event-loop probes take turns (they share a file per process).
      const snap = snapshot(target, m.label);
      sampling = sampling.then(async () => {
        marks.push({ ...snap, eld: await probeAll(target) });
      });
    } else if (m.type === 'result') settle({ result: m.result });
    else if (m.type === 'failed') settle({ error: m.error });
  });
  gen.send({ type: 'start', job });
  const timer = setTimeout(() => settle({ error: `generator timed out after ${timeoutMs} ms` }), timeoutMs);
  void gen.exited.then(() => settle({ error: 'generator exited without a result' }));
  const out = await outcome;
  clearTimeout(timer);
  await sampling;
  if (gen.child.exitCode === null) gen.child.kill('SIGKILL');
  await gen.exited;
  if ('error' in out) {
    const tails = target.procs.map((p) => `--- ${p.name}:\n${p.tail()}`).join('\n');
    throw new Error(`${out.error}\n${tails}`);
  }
  return { result: out.result, marks };
}

/** A generator's messages, taken one at a time; its exit reads as a failure. */
function mailbox() {
  const queue: GeneratorMessage[] = [];
  let waiter: ((m: GeneratorMessage) => void) | null = null;
  const push = (m: GeneratorMessage) => {
    if (!waiter) return void queue.push(m);
    const w = waiter;
    waiter = null;
    w(m);
  };
  return {
    push,
    take: () =>
      new Promise<GeneratorMessage>((resolve) => {
        const queued = queue.shift();
        if (queued) resolve(queued);
        else waiter = resolve;
      }),
  };
}

/**
 * One rate job shared by `generators` processes (each every n-th room, at its share of the rate), so no one
 * generator's core is the ceiling. The runner paces the phases: it marks the server, says go to every generator,
 * waits for all of their phase results and judges the merged step, as one generator would judge its own.
 */
export async function runSharedRateJob(
  target: Target,
  job: RateJob,
  generators: number,
  timeoutMs: number,
): Promise<{ result: RateResult; marks: Mark[]; settled: (Settled | undefined)[]; generators: number }> {
  const count = Math.max(1, Math.min(generators, job.rooms.length));
  const marks: Mark[] = [];
  /** Per phase with a settling time, the server read when it ended (the counted window's start). */
  const settled: (Settled | undefined)[] = [];
  let sampling = Promise.resolve();
  const mark = (label: string) => {
    const snap = snapshot(target, label);
    sampling = sampling.then(async () => {
      marks.push({ ...snap, eld: await probeAll(target) });
    });
  };
  const gens = Array.from({ length: count }, () => {
    const box = mailbox();
    const gen = forkGenerator(box.push);
    void gen.exited.then(() => box.push({ type: 'failed', error: 'generator exited without a result' }));
    return { gen, box };
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    for (const { gen } of gens) gen.child.kill('SIGKILL');
  }, timeoutMs);
  /** The next message of every generator, which must be of `type`. */
  const all = <T extends GeneratorMessage['type']>(type: T) =>
    Promise.all(
      gens.map(async ({ box }) => {
        const m = await box.take();
        if (m.type === 'failed')
          throw new Error(timedOut ? `generators timed out after ${timeoutMs} ms` : m.error);
        if (m.type !== type) throw new Error(`generator said ${m.type} where ${type} was due`);
        return m as Extract<GeneratorMessage, { type: T }>;
      }),
    );
  try {
    for (const [i, { gen }] of gens.entries()) gen.send({ type: 'start', job: shareOf(job, i, count) });
    await all('connected');
    const members = job.rooms.reduce((n, r) => n + r.members.length, 0) / job.rooms.length;
    const labels = ['warmup', ...job.phases.map((_, i) => `phase ${i + 1}`)];
    let saturatedSteps = 0;
    for (let i = 0; i < labels.length; i++) {
      mark(labels[i] as string);
      for (const { gen } of gens) gen.send({ type: 'go' });
      const settleSeconds = i > 0 ? (job.phases[i - 1]?.settleSeconds ?? 0) : 0;
      const settling =
        settleSeconds > 0
          ? setTimeout(() => {
              settled[i] = snapshot(target, `${labels[i]} settled`);
            }, settleSeconds * 1000)
          : undefined;
      const step = mergePhases((await all('phase')).map((m) => m.phase as PhaseResult));
      clearTimeout(settling);
      saturatedSteps = i > 0 && saturatedStep(step, step.rate, members) ? saturatedSteps + 1 : 0;
      if (saturatedSteps >= 2 && job.stopWhenSaturated) break;
    }
    mark('end');
    for (const { gen } of gens) gen.send({ type: 'stop' });
    const results = (await all('result')).map((m) => m.result as RateResult);
    await sampling;
    return { result: mergeResults(results), marks, settled, generators: count };
  } catch (err) {
    const tails = target.procs.map((p) => `--- ${p.name}:\n${p.tail()}`).join('\n');
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${tails}`);
  } finally {
    clearTimeout(timer);
    for (const { gen } of gens) if (gen.child.exitCode === null) gen.child.kill('SIGKILL');
    await Promise.all(gens.map(({ gen }) => gen.exited));
  }
}

/** The server read once a phase's settling time is over, without the event-loop probe. */
export type Settled = Omit<Mark, 'eld'>;

/** CPU seconds all the target's processes spent between two marks. */
export const cpuBetween = (a: Pick<Mark, 'cpu'>, b: Pick<Mark, 'cpu'>) =>
  b.cpu.reduce((s, c, i) => s + c - (a.cpu[i] ?? 0), 0);

/** The worst event-loop delay any of the target's processes saw over the interval ending at `m`. */
export function worstEld(m: Mark): EventLoopDelay | null {
  // No samples means the loop never got round to its timer in the interval: no figure rather than a zero.
  const all = m.eld.filter((e): e is EventLoopDelay => e !== null && e.samples > 0);
  if (all.length === 0) return null;
  return all.reduce((a, b) => (b.p99 > a.p99 ? b : a));
}
