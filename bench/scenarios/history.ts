import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Managed } from '../lib/proc';
import { fmt } from '../lib/stats';
import { startTarget } from '../targets';
import { type CatchUpRun, MISSED, runCatchUp } from './catch-up';
import type { BenchContext } from './context';
import { measurePages, type PageRun, type PageServer, samePageShape, startPagePeer } from './page-load';

// The history page (GET /api/chats/{chat_id}/messages/, 50 messages, bearer session token) under autocannon,
// against two bare Fastify routes (page-load.ts): one returning the same JSON as a constant
// (peers/fastify-history.ts), one reading the same 50 rows from the same SQLite file with one prepared
// statement (peers/sqlite-history.ts). Then, on the same Parley, a client's catch-up after a reconnect
// (catch-up.ts): the chat holds enough history for it.

export async function runHistory(
  ctx: BenchContext,
  reps: number,
): Promise<{ runs: PageRun[]; pageBytes: number; catchUp: CatchUpRun[] }> {
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
    const constant = await startPagePeer(peers, 'fastify', 'peers/fastify-history.ts', {
      BENCH_PAGE_FILE: file,
      BENCH_PAGE_ROUTE: '/api/chats/:chatId/messages/',
    });
    const reading = await startPagePeer(peers, 'fastify-sqlite', 'peers/sqlite-history.ts', {
      BENCH_DATA_DIR: parley.dataDir,
    });
    const theirs = await (await fetch(`${reading.url}${pagePath}`)).json();
    const differs = samePageShape(page, theirs);
    if (differs) throw new Error(`the SQLite-reading route's page is not Parley's: ${differs}`);

    const servers: { server: PageServer; url: string; pid: number }[] = [
      { server: 'parley', url: `${parley.urls[0]}${pagePath}`, pid: parley.procs[0]?.pid as number },
      { server: 'fastify', url: `${constant.url}${pagePath}`, pid: constant.pid },
      { server: 'fastify-sqlite', url: `${reading.url}${pagePath}`, pid: reading.pid },
    ];
    const runs = await measurePages(ctx, servers, headers, reps);
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
