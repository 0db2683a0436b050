import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  CHANNELS_PAGE_SIZE,
  type ChannelDirectory,
  type Message,
  THREAD_PAGE_SIZE,
  type ThreadPage,
} from '@parley/protocol';
import type { Managed } from '../lib/proc';
import { DIRECTORY_QUERY } from '../parley/seed-channels';
import { startTarget } from '../targets';
import type { BenchContext } from './context';
import { measurePages, type PageRun, samePageShape, startPagePeer } from './page-load';

// The channel directory and a long thread under autocannon, on one Parley seeded with CHANNELS public channels
// and a thread of THREAD_REPLIES replies (parley/seed-channels.ts): the directory's first page, a directory
// search and the thread's first page, each against two bare Fastify routes (page-load.ts) — one returning the
// same JSON as a constant, one answering from the same SQLite file with one prepared statement
// (peers/sqlite-channels.ts) — whose answer must hold the same entries as Parley's.
export const CHANNELS = 1_000;
export const THREAD_REPLIES = 10_000;
/** People besides the thread's group, the channels' members drawn from them all. */
const PEOPLE = 2_000;

export type ChannelsPage = 'directory' | 'search' | 'thread';

export interface ChannelsRun extends PageRun {
  page: ChannelsPage;
}

export interface ChannelsResult {
  channels: number;
  threadReplies: number;
  /** What the search typed. */
  query: string;
  /** Each page's path as asked and its JSON's size. */
  pages: { page: ChannelsPage; path: string; bytes: number }[];
  runs: ChannelsRun[];
}

/** The two answers name the same entries in the same order, with the same fields and the same next cursor. */
function samePage(page: ChannelsPage, ours: unknown, theirs: unknown): string | null {
  if (page === 'thread') {
    const a = ours as ThreadPage;
    const b = theirs as ThreadPage;
    const list = (p: ThreadPage) => [p.root, ...(p.results ?? [])];
    return (
      samePageShape(list(a), list(b)) ??
      (a.next_cursor !== b.next_cursor || a.following !== b.following
        ? `next_cursor or following differ: ${a.next_cursor}, ${a.following} vs ${b.next_cursor}, ${b.following}`
        : null)
    );
  }
  const a = ours as ChannelDirectory;
  const b = theirs as ChannelDirectory;
  return (
    samePageShape(a.results, b.results, 'chat_id') ??
    (a.next_cursor !== b.next_cursor ? `next_cursor differs: ${a.next_cursor} vs ${b.next_cursor}` : null)
  );
}

/** Parley's page is what the scenario means to measure: a full page, of the seeded thread. */
function fullPage(page: ChannelsPage, body: unknown): boolean {
  if (page !== 'thread') return (body as ChannelDirectory).results?.length === CHANNELS_PAGE_SIZE;
  const p = body as ThreadPage;
  return p.results?.length === THREAD_PAGE_SIZE && p.root?.thread?.reply_count === THREAD_REPLIES;
}

export async function runChannels(ctx: BenchContext, reps: number): Promise<ChannelsResult> {
  const seeding = performance.now();
  const parley = await startTarget(
    'parley',
    { rooms: 1, membersPerRoom: 10, extraUsers: PEOPLE, channels: CHANNELS, threadReplies: THREAD_REPLIES },
    ctx.services,
  );
  ctx.log(
    `  ${CHANNELS} channels and a ${THREAD_REPLIES}-reply thread seeded, Parley up in ` +
      `${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-channels-'));
  const peers: Managed[] = [];
  try {
    const room = parley.rooms[0];
    const base = parley.urls[0] as string;
    const headers = { authorization: `Bearer ${room?.members[0]?.token}` };
    const timeline = (await (await fetch(`${base}/api/chats/${room?.id}/messages/`, { headers })).json()) as
      | Message[]
      | undefined;
    const root = timeline?.find((m) => m.thread?.reply_count === THREAD_REPLIES);
    if (!root) throw new Error(`no root of ${THREAD_REPLIES} replies in the thread's group`);
    const pages = [
      { page: 'directory' as const, path: '/api/channels/', route: '/api/channels/' },
      {
        page: 'search' as const,
        path: `/api/channels/?q=${DIRECTORY_QUERY}`,
        route: '/api/channels/',
      },
      {
        page: 'thread' as const,
        path: `/api/chats/${room?.id}/messages/${root.id}/thread/`,
        route: '/api/chats/:chatId/messages/:messageId/thread/',
      },
    ];
    const reading = await startPagePeer(peers, 'fastify-sqlite', 'peers/sqlite-channels.ts', {
      BENCH_DATA_DIR: parley.dataDir,
      // The viewer is the first person seeded: user id 1.
      BENCH_VIEWER_ID: '1',
    });
    const result: ChannelsResult = {
      channels: CHANNELS,
      threadReplies: THREAD_REPLIES,
      query: DIRECTORY_QUERY,
      pages: [],
      runs: [],
    };
    for (const p of pages) {
      const res = await fetch(`${base}${p.path}`, { headers });
      const body = await res.text();
      const ours = JSON.parse(body) as unknown;
      if (!res.ok || !fullPage(p.page, ours))
        throw new Error(`${p.page}: HTTP ${res.status}, not a full page: ${body.slice(0, 200)}`);
      const theirs = (await (await fetch(`${reading.url}${p.path}`)).json()) as unknown;
      const differs = samePage(p.page, ours, theirs);
      if (differs) throw new Error(`${p.page}: the SQLite-reading route's page is not Parley's: ${differs}`);
      const file = path.join(dir, `${p.page}.json`);
      fs.writeFileSync(file, body);
      const started: Managed[] = [];
      try {
        const constant = await startPagePeer(started, 'fastify', 'peers/fastify-history.ts', {
          BENCH_PAGE_FILE: file,
          BENCH_PAGE_ROUTE: p.route,
        });
        const runs = await measurePages(
          ctx,
          [
            { server: 'parley', url: `${base}${p.path}`, pid: parley.procs[0]?.pid as number },
            { server: 'fastify', url: `${constant.url}${p.path}`, pid: constant.pid },
            { server: 'fastify-sqlite', url: `${reading.url}${p.path}`, pid: reading.pid },
          ],
          headers,
          reps,
          `${p.page} `,
        );
        result.runs.push(...runs.map((r) => ({ ...r, page: p.page })));
        result.pages.push({ page: p.page, path: p.path, bytes: Buffer.byteLength(body) });
      } finally {
        await Promise.all(started.map((s) => s.stop()));
      }
    }
    return result;
  } finally {
    await Promise.all(peers.map((p) => p.stop()));
    await parley.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
