import { deferred } from '@parley/server';
import { forkGenerator } from '../lib/drive';
import { fdLimit, sleep } from '../lib/proc';
import type { GeneratorMessage, RestartJob, RestartResult } from '../load/ipc';
import { startTarget } from '../targets';
import type { BenchContext } from './context';

// A process restart with many clients on it: Parley on SQLite holds `goal` sockets (or what its
// open-files limit leaves room for) — 20 rooms of 10 where one member of each sends 5 messages a second, and
// notification sockets for everyone else — from several generators whose clients reconnect by the web
// client's rule (load/restart-job.ts). The process is restarted gracefully (SIGTERM, the same command again);
// the figures are how long until every socket was back, the reconnections per second the new process took,
// and whether any message was lost or doubled (the rooms' histories against what each member had).
const ROOMS = 20;
const MEMBERS = 10;
const SEND_EVERY_MS = 200;
const PER_GENERATOR = 10_000;
const SETTLE_MS = 3000;

export interface RestartRun {
  goal: number;
  sockets: number;
  fdLimit: number;
  connectSeconds: number;
  /** SIGTERM → the old process gone; the new one's start → it answers. */
  stopSeconds: number;
  startSeconds: number;
  /** SIGTERM → every socket back; the new process answering → every socket back. */
  allBackSeconds: number;
  herdSeconds: number;
  /** Sockets ÷ herdSeconds: the reconnections per second the new process took. */
  reconnectsPerSecond: number;
  reconnects: number;
  gaveUp: number;
  sent: number;
  expected: number;
  lost: number;
  duplicated: number;
  unsent: number;
  firstError: string | null;
}

export async function runRestart(ctx: BenchContext, goal: number): Promise<RestartRun> {
  const inRooms = ROOMS * MEMBERS;
  const limit = fdLimit(process.pid);
  // The server's own files, the generators' HTTP catch-ups and a margin beside the sockets.
  const sockets = Math.min(goal, limit - 256);
  const target = await startTarget(
    'parley',
    { rooms: ROOMS, membersPerRoom: MEMBERS, extraUsers: sockets - inRooms },
    ctx.services,
  );
  const gens: ReturnType<typeof forkGenerator>[] = [];
  try {
    if (!target.restart) throw new Error('the target cannot restart');
    const room = target.rooms;
    const bells = target.loners.slice(0, sockets - inRooms);
    const count = Math.max(1, Math.ceil(bells.length / PER_GENERATOR));
    const connected: Promise<number>[] = [];
    const back: Promise<number>[] = [];
    const results: Promise<RestartResult>[] = [];
    for (let g = 0; g < count; g++) {
      const up = deferred<number>();
      const allBack = deferred<number>();
      const result = deferred<RestartResult>();
      const gen = forkGenerator((m: GeneratorMessage) => {
        if (m.type === 'connected') up.resolve(m.seconds);
        if (m.type === 'mark' && m.label === 'back') allBack.resolve(performance.now());
        if (m.type === 'result') result.resolve(m.result as RestartResult);
        if (m.type === 'failed') for (const l of [up, allBack, result]) l.reject(new Error(m.error));
      });
      void gen.exited.then(() => {
        for (const l of [up, allBack, result]) l.reject(new Error('restart generator exited early'));
      });
      const job: RestartJob = {
        mode: 'restart',
        kind: target.kind,
        members: bells.slice(g * PER_GENERATOR, (g + 1) * PER_GENERATOR),
        rooms: g === 0 ? room : [],
        sendEveryMs: SEND_EVERY_MS,
        localAddresses: ctx.localAddresses.map(
          (_, j) => ctx.localAddresses[(j + g) % ctx.localAddresses.length] as string,
        ),
        connectConcurrency: 32,
      };
      gen.send({ type: 'start', job });
      gens.push(gen);
      connected.push(up.promise);
      back.push(allBack.promise);
      results.push(result.promise);
    }
    const within = <T>(p: Promise<T>, ms: number, what: string) =>
      Promise.race([
        p,
        sleep(ms).then(() => {
          throw new Error(`restart: ${what} within ${ms / 1000} s`);
        }),
      ]);
    const connectSeconds = Math.max(...(await within(Promise.all(connected), 300_000, 'not connected')));
    ctx.log(`    ${sockets} sockets open (fd limit ${limit}); restarting the process`);
    await sleep(SETTLE_MS);
    const restartAt = performance.now();
    const { stopSeconds, startSeconds } = await target.restart();
    const answeringAt = performance.now();
    const backAt = Math.max(...(await within(Promise.all(back), 180_000, 'not every socket back')));
    await sleep(SETTLE_MS);
    for (const gen of gens) gen.send({ type: 'stop' });
    const all = await within(Promise.all(results), 120_000, 'no result');
    const sum = (f: (r: RestartResult) => number) => all.reduce((n, r) => n + f(r), 0);
    const herdSeconds = (backAt - answeringAt) / 1000;
    return {
      goal,
      sockets,
      fdLimit: limit,
      connectSeconds,
      stopSeconds,
      startSeconds,
      allBackSeconds: (backAt - restartAt) / 1000,
      herdSeconds,
      reconnectsPerSecond: sockets / Math.max(herdSeconds, 0.001),
      reconnects: sum((r) => r.reconnects),
      gaveUp: sum((r) => r.gaveUp),
      sent: sum((r) => r.sent),
      expected: sum((r) => r.expected),
      lost: sum((r) => r.lost),
      duplicated: sum((r) => r.duplicated),
      unsent: sum((r) => r.unsent),
      firstError: all.find((r) => r.firstError)?.firstError ?? null,
    };
  } finally {
    for (const gen of gens) if (gen.child.connected) gen.child.kill('SIGKILL');
    await target.stop();
  }
}
