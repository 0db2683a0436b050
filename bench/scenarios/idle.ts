import path from 'node:path';
import { forkGenerator } from '../lib/drive';
import { virtualMachine } from '../lib/machine';
import { fdLimit, openFds, rssBytes, sleep } from '../lib/proc';
import { probe } from '../lib/stats-probe';
import type { IdleJob, IdleResult, Member } from '../load/ipc';
import { startTarget, type Target, type Variant } from '../targets';
import type { BenchContext } from './context';

// Idle authenticated connections on one process: as many notification sockets as the process's file-descriptor
// limit allows (up to the goal, 100,000; run.ts raises the limit), from several generator processes and loopback
// addresses. RSS per connection is
// (RSS after − RSS before) / n, both read after a forced GC, "before" after a warm-up batch has come and gone.
// In a virtual machine (`npm run bench:vm`) the open-files limit is raised for every process and two emulated
// CPUs carry them all: two generators, not eight, so the server is not starved by processes it has to wait for.
const PER_GENERATOR = process.env.BENCH_VM ? 50_000 : 12_500;
const WARMUP = 500;

export interface IdleRun {
  variant: Variant;
  goal: number;
  /** What the server's fd limit left room for. */
  attempted: number;
  connected: number;
  failed: number;
  firstError: string | null;
  fdLimit: number;
  connectSeconds: number;
  connectionsPerSecond: number;
  rssBeforeMiB: number;
  rssAfterMiB: number;
  kibPerConnection: number;
  heapKibPerConnection: number;
  /** Set when the run happened in a virtual machine (`npm run bench:vm`), not on the machine the report names. */
  machine?: string | null;
}

/** Opens `members` from as many generator processes as needed; returns their results and a way to close them. */
async function openIdle(ctx: BenchContext, target: Target, members: Member[]) {
  const gens: { close(): Promise<void>; result: Promise<IdleResult> }[] = [];
  for (let i = 0; i < members.length; i += PER_GENERATOR) {
    let resolve: (r: IdleResult) => void = () => {};
    let reject: (e: Error) => void = () => {};
    const result = new Promise<IdleResult>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const gen = forkGenerator((m) => {
      if (m.type === 'result') resolve(m.result as IdleResult);
      if (m.type === 'failed') reject(new Error(m.error));
    });
    void gen.exited.then(() => reject(new Error('idle generator exited early')));
    const job: IdleJob = {
      mode: 'idle',
      kind: target.kind,
      members: members.slice(i, i + PER_GENERATOR),
      // Each generator gets its own loopback source addresses, so no source runs short of ports.
      localAddresses: ctx.localAddresses.map(
        (_, j) => ctx.localAddresses[(j + i / PER_GENERATOR) % ctx.localAddresses.length] as string,
      ),
      connectConcurrency: 32,
    };
    gen.send({ type: 'start', job });
    gens.push({
      result,
      async close() {
        if (gen.child.connected) gen.send({ type: 'close' });
        const timer = setTimeout(() => gen.child.kill('SIGKILL'), 15_000);
        await gen.exited;
        clearTimeout(timer);
      },
    });
  }
  const start = performance.now();
  const results = await Promise.all(gens.map((g) => g.result));
  return {
    seconds: (performance.now() - start) / 1000,
    connected: results.reduce((n, r) => n + r.connected, 0),
    failed: results.reduce((n, r) => n + r.failed, 0),
    firstError: results.find((r) => r.firstError)?.firstError ?? null,
    close: () => Promise.all(gens.map((g) => g.close())),
  };
}

/** BENCH_HEAP_SNAPSHOTS=<dir>: a heap snapshot of the server beside each memory reading (what a connection keeps). */
const snapshotDir = process.env.BENCH_HEAP_SNAPSHOTS;

async function steadyMemory(target: Target, label: string) {
  await sleep(1500);
  const proc = target.procs[0];
  if (!proc) throw new Error('no process');
  const command = snapshotDir
    ? (`snapshot ${path.resolve(snapshotDir, `${target.variant}-${label}.heapsnapshot`)}` as const)
    : 'gc';
  const stats = await probe(proc.pid, target.statsFiles[0] as string, command);
  await sleep(300);
  return { rss: rssBytes(proc.pid), heap: stats?.memory.heapUsed ?? 0 };
}

export async function runIdle(ctx: BenchContext, variant: Variant, goal: number): Promise<IdleRun> {
  const target = await startTarget(
    variant,
    { rooms: 0, membersPerRoom: 0, extraUsers: goal + WARMUP },
    ctx.services,
  );
  try {
    const pid = target.procs[0]?.pid as number;
    const limit = fdLimit(pid);
    const warm = await openIdle(ctx, target, target.loners.slice(goal, goal + WARMUP));
    await warm.close();
    const before = await steadyMemory(target, 'before');
    // Room for the server's own files (database, listening socket, pipes) and a margin.
    const attempted = Math.min(goal, limit - openFds(pid) - 32);
    ctx.log(`    ${variant}: opening ${attempted} idle connections (fd limit ${limit})`);
    const idle = await openIdle(ctx, target, target.loners.slice(0, attempted));
    const after = await steadyMemory(target, 'after');
    await idle.close();
    const n = Math.max(1, idle.connected);
    return {
      variant,
      goal,
      attempted,
      connected: idle.connected,
      failed: idle.failed,
      firstError: idle.firstError,
      fdLimit: limit,
      connectSeconds: idle.seconds,
      connectionsPerSecond: idle.connected / idle.seconds,
      rssBeforeMiB: before.rss / 2 ** 20,
      rssAfterMiB: after.rss / 2 ** 20,
      kibPerConnection: (after.rss - before.rss) / n / 1024,
      heapKibPerConnection: (after.heap - before.heap) / n / 1024,
      machine: virtualMachine(),
    };
  } finally {
    await target.stop();
  }
}
