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
import type { HttpJob, HttpMessage, HttpResult } from '../load/http-load';
import { startTarget } from '../targets';
import type { BenchContext } from './context';

// The history page (GET /api/chats/{chat_id}/messages/, 50 messages, bearer session token) under autocannon,
// against a bare Fastify route returning the same JSON. Runs alternate between the two servers.
const CONNECTIONS = 20;

export interface HistoryRun {
  server: 'parley' | 'fastify';
  rep: number;
  requestsPerSecond: number;
  latencyP50: number;
  latencyP99: number;
  errors: number;
  non2xx: number;
  total: number;
  cpuMsPer1000: number;
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
): Promise<{ runs: HistoryRun[]; pageBytes: number }> {
  const parley = await startTarget(
    'parley',
    { rooms: 1, membersPerRoom: 10, historyMessages: 60 },
    ctx.services,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-history-'));
  let peer: Managed | null = null;
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
    const port = await freePort();
    peer = startProcess(
      'fastify',
      process.execPath,
      [...probeFlags, ...tsxFlags, path.join(benchDir, 'peers/fastify-history.ts')],
      {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        PORT: String(port),
        BENCH_HISTORY_FILE: file,
      },
    );
    const peerUrl = `http://127.0.0.1:${port}`;
    await waitForHttp(`${peerUrl}/health`, peer);

    const servers = [
      { server: 'parley' as const, url: `${parley.urls[0]}${pagePath}`, pid: parley.procs[0]?.pid as number },
      { server: 'fastify' as const, url: `${peerUrl}${pagePath}`, pid: peer.pid },
    ];
    const runs: HistoryRun[] = [];
    for (let rep = 1; rep <= reps; rep++) {
      for (const s of rep % 2 ? servers : [...servers].reverse()) {
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
          `    ${s.server} rep ${rep}: ${Math.round(r.requestsPerSecond)} req/s, p99 ${r.latencyP99} ms`,
        );
      }
    }
    return { runs, pageBytes: Buffer.byteLength(body) };
  } finally {
    await peer?.stop();
    await parley.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
