import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
import { startTarget } from '../targets';
import { type CatchUpRun, MISSED, runCatchUp } from './catch-up';
import type { BenchContext } from './context';

// The history page (GET /api/chats/{chat_id}/messages/, 50 messages, bearer session token) under autocannon,
// against two bare Fastify routes: one returning the same JSON as a constant (peers/fastify-history.ts), one
// reading the same 50 rows from the same SQLite file with one prepared statement (peers/sqlite-history.ts).
// Runs alternate between the three servers, each repetition starting with a different one. Then, on the same
// Parley, a client's catch-up after a reconnect (catch-up.ts): the chat holds enough history for it.
const CONNECTIONS = 20;

/** 'fastify': the constant route; 'fastify-sqlite': the route reading Parley's SQLite file. */
export type HistoryServer = 'parley' | 'fastify' | 'fastify-sqlite';

export interface HistoryRun {
  server: HistoryServer;
  rep: number;
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  non2xx: number;
  total: number;
  cpuMsPer1000: number;
  /** autocannon's CPU in cores (absent from results before it was recorded). */
  loadCpu?: number;
}

/** The same page's shape from two servers: the same message ids in the same order, each with the same fields. */
export function samePageShape(a: unknown, b: unknown): string | null {
  if (!Array.isArray(a) || !Array.isArray(b)) return 'not a list of messages';
  const ids = (p: unknown[]) => p.map((m) => (m as { id?: unknown }).id).join(',');
  if (ids(a) !== ids(b)) return `message ids differ: ${ids(a).slice(0, 40)}… vs ${ids(b).slice(0, 40)}…`;
  const keys = (m: unknown) => Object.keys(m as object).join(',');
  const at = a.findIndex((m, i) => keys(m) !== keys(b[i]));
  return at < 0 ? null : `message ${at}'s fields differ: ${keys(a[at])} vs ${keys(b[at])}`;
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

export async function runHistory(
  ctx: BenchContext,
  reps: number,
): Promise<{ runs: HistoryRun[]; pageBytes: number; catchUp: CatchUpRun[] }> {
  const parley = await startTarget(
    'parley',
    { rooms: 1, membersPerRoom: 10, historyMessages: MISSED + 100 },
    ctx.services,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
  const peers: Managed[] = [];
  try {
    const room = parley.rooms[0];
    const token = room?.members[0]?.token as string;
    const pagePath = `/api/chats/${room?.id}/messages/`;
    const headers = { authorization: `Bearer ${token}` };
    const res = await fetch(`${parley.urls[0]}${pagePath}`, { headers });
    const body = await res.text();
    const page = JSON.parse(body) as unknown[];
    if (!res.ok || !Array.isArray(page) || page.length !== 50)
      throw new Error(
        `history page: HTTP ${res.status}, ${Array.isArray(page) ? page.length : 'no'} messages`,
      );
    const file = path.join(dir, 'page.json');
    fs.writeFileSync(file, body);
    const startPeer = async (name: string, script: string, env: NodeJS.ProcessEnv) => {
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
      peers.push(proc);
      const url = `http://127.0.0.1:${port}`;
      await waitForHttp(`${url}/health`, proc);
      return { url: `${url}${pagePath}`, pid: proc.pid };
    };
    const constant = await startPeer('fastify', 'peers/fastify-history.ts', { BENCH_HISTORY_FILE: file });
    const reading = await startPeer('fastify-sqlite', 'peers/sqlite-history.ts', {
      BENCH_DATA_DIR: parley.dataDir,
    });
    const theirs = await (await fetch(reading.url)).json();
    const differs = samePageShape(page, theirs);
    if (differs) throw new Error(`the SQLite-reading route's page is not Parley's: ${differs}`);

    const servers: { server: HistoryServer; url: string; pid: number }[] = [
      { server: 'parley', url: `${parley.urls[0]}${pagePath}`, pid: parley.procs[0]?.pid as number },
      { server: 'fastify', ...constant },
      { server: 'fastify-sqlite', ...reading },
    ];
    const runs: HistoryRun[] = [];
    for (let rep = 1; rep <= reps; rep++) {
      for (const s of servers.map(
        (_, i) => servers[(i + rep - 1) % servers.length] as (typeof servers)[number],
      )) {
        let cpuBefore = 0;
        const r = await autocannon(
          {
            url: s.url,
            headers,
            connections: CONNECTIONS,
            warmupSeconds: 1,
            seconds: ctx.plan.historySeconds,
          },
          () => {
            cpuBefore = cpuSeconds(s.pid);
          },
        );
        const cpu = cpuSeconds(s.pid) - cpuBefore;
        runs.push({ server: s.server, rep, ...r, cpuMsPer1000: (cpu * 1000) / (r.total / 1000) });
        ctx.log(
          `    ${s.server} rep ${rep}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.latencyP99} ms, ` +
            `server ${fmt((cpu * 1000) / r.total, 3)} CPU ms / req, autocannon ${fmt(r.loadCpu, 2)} cores`,
        );
      }
    }
    const catchUp = await runCatchUp(
      { url: `${parley.urls[0]}${pagePath}`, token, pid: parley.procs[0]?.pid as number },
      reps,
    );
    for (const c of catchUp)
      ctx.log(
        `    parley catch-up rep ${c.rep}: ${c.missed} missed messages in ${c.requests} requests, ` +
          `server ${fmt(c.serverCpuMs, 1)} CPU ms, ${fmt(c.wallMs, 1)} ms wall`,
      );
    return { runs, pageBytes: Buffer.byteLength(body), catchUp };
  } finally {
    await Promise.all(peers.map((p) => p.stop()));
    await parley.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
