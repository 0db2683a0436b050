import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { isPostgresUrl } from './pg-schema';
import { killAll, type ServerProcess, spawnServer } from './server-process';
import { createStore, type ServerStore } from './server-store';

// Two real Parley processes (A and B) on one PostgreSQL schema and one Redis, for the tests of what must hold
// across processes. They run only in the PostgreSQL + Redis pass: `describe.skipIf(!twoProcessesEnabled)`.

export const twoProcessesEnabled = isPostgresUrl(process.env.DATABASE_URL) && !!process.env.REDIS_URL;

export interface TwoProcesses {
  store: ServerStore;
  a: ServerProcess;
  b: ServerProcess;
}

/** Starts A and B before the calling describe block's tests and stops them after; call inside the block. */
export function useTwoProcesses(): () => TwoProcesses {
  let running: TwoProcesses | null = null;
  let store: ServerStore | null = null;
  beforeAll(async () => {
    store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    const redisUrl = process.env.REDIS_URL;
    const a = await spawnServer({ store, redisUrl, label: 'A', dataDir: path.join(store.dataDir, 'a') });
    const b = await spawnServer({ store, redisUrl, label: 'B', dataDir: path.join(store.dataDir, 'b') });
    running = { store, a, b };
  }, 120_000);
  afterAll(async () => {
    await killAll();
    await store?.close();
  });
  return () => {
    if (!running) throw new Error('the two processes are not running');
    return running;
  };
}
