import { performance } from 'node:perf_hooks';
import { machineBusySeconds } from '../lib/machine';
import { cpuSeconds } from '../lib/proc';
import { type SearchQuery, SHAPES, type Shape } from './queries';

// Timing the 200 queries one way (the HTTP route, the index's SQL alone, or a LIKE scan): one untimed pass to warm
// the caches, then timed passes, one query at a time; p50/p95 over every timed query, and per shape.
export interface Timings {
  p50: number;
  p95: number;
  max: number;
  n: number;
  byShape: Partial<Record<Shape, { p50: number; p95: number; n: number }>>;
  /** The query whose fastest timed pass was slowest, with that time. */
  slowest: { shape: Shape; q: string; from?: string; ms: number } | null;
  /** Messages found per query, on average (a check that the queries find something). */
  meanHits: number;
  /** Cores busy with other work over the timed passes: the machine's busy time minus this process's and the
   *  server's (PostgreSQL's own work counts as other work), per second. */
  backgroundCores: number;
  /** CPU seconds of the server process over the timed passes (the HTTP route only). */
  serverCpuSeconds: number | null;
  /** Wall-clock seconds of the timed passes. */
  seconds: number;
}

export const TIMED_PASSES = 2;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number;
}

type Summary = Omit<Timings, 'backgroundCores' | 'serverCpuSeconds' | 'seconds'>;

function summarise(samples: { query: SearchQuery; ms: number }[], hits: number): Summary {
  const all = samples.map((s) => s.ms).sort((a, b) => a - b);
  const byShape: Timings['byShape'] = {};
  for (const shape of SHAPES) {
    const ms = samples
      .filter((s) => s.query.shape === shape)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    if (ms.length) byShape[shape] = { p50: quantile(ms, 0.5), p95: quantile(ms, 0.95), n: ms.length };
  }
  // The slowest query is the one whose fastest pass was slowest: a single pass can meet someone else's burst.
  const fastest = new Map<SearchQuery, number>();
  for (const { query, ms } of samples) fastest.set(query, Math.min(ms, fastest.get(query) ?? ms));
  const worst = [...fastest].reduce<[SearchQuery, number] | null>(
    (w, e) => (!w || e[1] > w[1] ? e : w),
    null,
  );
  return {
    p50: quantile(all, 0.5),
    p95: quantile(all, 0.95),
    max: all.at(-1) ?? Number.NaN,
    n: all.length,
    byShape,
    slowest: worst ? { ...worst[0], ms: worst[1] } : null,
    meanHits: hits / Math.max(1, samples.length),
  };
}

const ownCpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/**
 * Runs `one` (which returns how many messages it found) over the queries: a warm-up pass, then timed passes.
 * `serverPid`: the server process whose CPU is its own work, not background.
 */
export async function timeQueries(
  queries: SearchQuery[],
  one: (q: SearchQuery) => Promise<number>,
  serverPid?: number,
): Promise<Timings> {
  for (const q of queries) await one(q);
  const samples: { query: SearchQuery; ms: number }[] = [];
  let hits = 0;
  const server = () => (serverPid === undefined ? 0 : cpuSeconds(serverPid));
  const start = {
    wall: performance.now(),
    busy: machineBusySeconds(),
    own: ownCpuSeconds(),
    server: server(),
  };
  for (let pass = 0; pass < TIMED_PASSES; pass++)
    for (const query of queries) {
      const t = performance.now();
      hits += await one(query);
      samples.push({ query, ms: performance.now() - t });
    }
  const seconds = (performance.now() - start.wall) / 1000;
  const serverCpu = server() - start.server;
  const other = machineBusySeconds() - start.busy - (ownCpuSeconds() - start.own) - serverCpu;
  return {
    ...summarise(samples, hits),
    backgroundCores: Math.max(0, other / seconds),
    serverCpuSeconds: serverPid === undefined ? null : serverCpu,
    seconds,
  };
}
