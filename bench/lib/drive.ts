import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import type { GeneratorMessage, Job, JobResult, RunnerMessage } from '../load/ipc';
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

/** CPU seconds all the target's processes spent between two marks. */
export const cpuBetween = (a: Mark, b: Mark) => b.cpu.reduce((s, c, i) => s + c - (a.cpu[i] ?? 0), 0);

/** The worst event-loop delay any of the target's processes saw over the interval ending at `m`. */
export function worstEld(m: Mark): EventLoopDelay | null {
  // No samples means the loop never got round to its timer in the interval: no figure rather than a zero.
  const all = m.eld.filter((e): e is EventLoopDelay => e !== null && e.samples > 0);
  if (all.length === 0) return null;
  return all.reduce((a, b) => (b.p99 > a.p99 ? b : a));
}
