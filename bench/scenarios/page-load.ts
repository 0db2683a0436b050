import { fork } from 'node:child_process';
import path from 'node:path';
import {
  benchDir,
  cpuSeconds,
  freePort,
  type Managed,
  probeFlags,
  startProcess,
  tsxFlags,
  waitForHttp,
} from '../lib/proc';
import { fmt } from '../lib/stats';
import type { HttpJob, HttpMessage, HttpResult } from '../load/http-load';
import type { BenchContext } from './context';

// What the HTTP page scenarios (history.ts, channels.ts) share: a page served by Parley against two bare Fastify
// peers started beside it — one returning Parley's JSON for the page as a constant (peers/fastify-history.ts),
// one reading the same rows from Parley's SQLite file with one prepared statement — under autocannon, the
// servers alternating and each repetition starting with a different one.
const CONNECTIONS = 20;

/** 'fastify': the constant route; 'fastify-sqlite': the route reading Parley's SQLite file. */
export type PageServer = 'parley' | 'fastify' | 'fastify-sqlite';

/** One server's run on a page: autocannon's figures and the server's CPU. */
export interface PageRun extends Omit<HttpResult, 'loadCpu'> {
  server: PageServer;
  rep: number;
  cpuMsPer1000: number;
  /** autocannon's CPU in cores (absent from results before it was recorded). */
  loadCpu?: number;
}

/**
 * The same list from two servers: the same ids (`key`) in the same order, each entry with the same fields; null
 * when they match, else what differs.
 */
export function samePageShape(a: unknown, b: unknown, key = 'id'): string | null {
  if (!Array.isArray(a) || !Array.isArray(b)) return 'not a list';
  const ids = (p: unknown[]) => p.map((m) => (m as Record<string, unknown>)[key]).join(',');
  if (ids(a) !== ids(b)) return `${key}s differ: ${ids(a).slice(0, 40)}… vs ${ids(b).slice(0, 40)}…`;
  const keys = (m: unknown) => Object.keys(m as object).join(',');
  const at = a.findIndex((m, i) => keys(m) !== keys(b[i]));
  return at < 0 ? null : `entry ${at}'s fields differ: ${keys(a[at])} vs ${keys(b[at])}`;
}

/** Runs autocannon in its own process; `onMeasuring` is called as the measured pass (after the warm-up) begins. */
export function autocannon(job: HttpJob, onMeasuring: () => void = () => {}): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(benchDir, 'load/http-load.ts'), [], { execArgv: [...tsxFlags] });
    child.on('message', (m: HttpMessage) => {
      if (m.type === 'measuring') onMeasuring();
      else if (m.type === 'result') resolve(m.result);
      else reject(new Error(m.error));
    });
    child.once('exit', () => reject(new Error('autocannon process exited without a result')));
    child.send(job);
  });
}

/** A bare Fastify peer (a script of peers/) on a free port, added to `started`; resolves once it answers. */
export async function startPagePeer(
  started: Managed[],
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
): Promise<{ url: string; pid: number }> {
  const port = await freePort();
  const proc = startProcess(
    name,
    process.execPath,
    [...probeFlags, ...tsxFlags, path.join(benchDir, script)],
    {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      ...env,
    },
  );
  started.push(proc);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/health`, proc);
  return { url, pid: proc.pid };
}

/** Each server's `url` under autocannon `reps` times, alternating; each server's CPU read from its process. */
export async function measurePages(
  ctx: BenchContext,
  servers: { server: PageServer; url: string; pid: number }[],
  headers: Record<string, string>,
  reps: number,
  label = '',
): Promise<PageRun[]> {
  const runs: PageRun[] = [];
  for (let rep = 1; rep <= reps; rep++) {
    for (const s of servers.map(
      (_, i) => servers[(i + rep - 1) % servers.length] as (typeof servers)[number],
    )) {
      let cpuBefore = 0;
      const r = await autocannon(
        { url: s.url, headers, connections: CONNECTIONS, warmupSeconds: 1, seconds: ctx.plan.historySeconds },
        () => {
          cpuBefore = cpuSeconds(s.pid);
        },
      );
      const cpu = cpuSeconds(s.pid) - cpuBefore;
      runs.push({ server: s.server, rep, ...r, cpuMsPer1000: (cpu * 1000) / (r.total / 1000) });
      ctx.log(
        `    ${label}${s.server} rep ${rep}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.latencyP99} ms, ` +
          `server ${fmt((cpu * 1000) / r.total, 3)} CPU ms / req, autocannon ${fmt(r.loadCpu, 2)} cores`,
      );
    }
  }
  return runs;
}
