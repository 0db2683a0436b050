import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  benchDir,
  freePort,
  type Managed,
  probeFlags,
  startProcess,
  tsxFlags,
  waitForHttp,
} from './lib/proc';
import type { Member, RoomSpec, ServerKind } from './load/ipc';
import { launchParley } from './parley/launch';
import { startPreviewPages } from './parley/preview-pages';
import type { SeedSpec } from './parley/seed';

// A server under test, whichever it is: its processes (for CPU, RSS and event-loop probes), its rooms and users.
// 'parley-acks' is Parley on SQLite with clients that acknowledge every message as the web app does; 'ws' is the
// optimal `ws` peer (peers/bare-ws.ts), 'naive-ws' the usual one (peers/naive-ws.ts), for reference.
export type Variant =
  | 'parley'
  | 'parley-acks'
  | 'parley-links'
  | 'parley-pg'
  | 'parley-pg-redis'
  | 'ws'
  | 'ws-sqlite'
  | 'naive-ws'
  | 'socketio';

export const variantLabel: Record<Variant, string> = {
  parley: 'Parley (SQLite)',
  'parley-acks': 'Parley (SQLite), clients ack like the web app',
  'parley-links': 'Parley (SQLite), a link in a fifth of the bodies',
  'parley-pg': 'Parley (PostgreSQL)',
  'parley-pg-redis': 'Parley ×2 processes (PostgreSQL + Redis)',
  ws: 'bare ws',
  'ws-sqlite': 'ws + SQLite (store floor)',
  'naive-ws': 'naive ws',
  socketio: 'Socket.IO',
};

export interface Target {
  variant: Variant;
  kind: ServerKind;
  procs: Managed[];
  statsFiles: string[];
  urls: string[];
  rooms: RoomSpec[];
  /** Users in no room, for idle and churn connections. */
  loners: Member[];
  /** 'parley-links': the address under which every body's link is a page of its own. */
  linkBase?: string;
  /** Parley: its DATA_DIR (on SQLite, parley.db in it). */
  dataDir?: string;
  /** Parley: a graceful restart of process `i` on the same port (see launch.ts). */
  restart?(i?: number): Promise<{ stopSeconds: number; startSeconds: number }>;
  stop(): Promise<void>;
}

export interface Services {
  postgresUrl: string;
  redisUrl: string;
}

export async function startTarget(
  variant: Variant,
  layout: SeedSpec,
  services: Services,
  nodeFlags: string[] = [],
): Promise<Target> {
  if (variant in peerScripts) return startPeer(variant as keyof typeof peerScripts, layout);
  // Link previews fetch pages served here: the server may reach this machine for them.
  const pages = variant === 'parley-links' ? await startPreviewPages() : null;
  const run = await launchParley({
    env: pages ? { PREVIEW_ALLOW_PRIVATE_HOSTS: 'true' } : {},
    db:
      variant === 'parley' || variant === 'parley-acks' || variant === 'parley-links' ? 'sqlite' : 'postgres',
    processes: variant === 'parley-pg-redis' ? 2 : 1,
    redisUrl: variant === 'parley-pg-redis' ? services.redisUrl : undefined,
    postgresUrl: services.postgresUrl,
    seed: layout,
    nodeFlags,
  });
  const { users } = run.seed;
  // With several processes, the members of each room alternate between them.
  const rooms = run.seed.rooms.map((room) => ({
    id: room.chatId,
    members: room.members.map((u, i) => ({
      target: run.urls[i % run.urls.length] as string,
      token: users[u]?.token as string,
    })),
  }));
  const inRooms = layout.rooms * layout.membersPerRoom;
  const loners = users
    .slice(inRooms)
    .map((u, i) => ({ target: run.urls[i % run.urls.length] as string, token: u.token }));
  return {
    variant,
    kind: 'parley',
    procs: run.procs,
    statsFiles: run.statsFiles,
    urls: run.urls,
    rooms,
    loners,
    dataDir: run.dataDir,
    linkBase: pages?.base,
    restart: run.restart,
    stop: async () => {
      await run.stop();
      await pages?.close();
    },
  };
}

const peerScripts = {
  ws: 'peers/bare-ws.ts',
  'ws-sqlite': 'peers/ws-sqlite.ts',
  'naive-ws': 'peers/naive-ws.ts',
  socketio: 'peers/socketio.ts',
};

async function startPeer(variant: keyof typeof peerScripts, layout: SeedSpec): Promise<Target> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-${variant}-`));
  const port = await freePort();
  const statsFile = path.join(dir, 'stats.json');
  const script = path.join(benchDir, peerScripts[variant]);
  const proc = startProcess(variant, process.execPath, [...probeFlags, ...tsxFlags, script], {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: String(port),
    BENCH_STATS_FILE: statsFile,
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/`, proc);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  const member = (user: number): Member => ({ target: url, token: String(user) });
  const rooms = Array.from({ length: layout.rooms }, (_, r) => ({
    id: `room${r + 1}`,
    members: Array.from({ length: layout.membersPerRoom }, (_, m) =>
      member(r * layout.membersPerRoom + m + 1),
    ),
  }));
  const first = layout.rooms * layout.membersPerRoom + 1;
  const loners = Array.from({ length: layout.extraUsers ?? 0 }, (_, i) => member(first + i));
  return {
    variant,
    kind: variant === 'socketio' ? 'socketio' : 'ws',
    procs: [proc],
    statsFiles: [statsFile],
    urls: [url],
    rooms,
    loners,
    async stop() {
      await proc.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
