import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { isPostgresUrl } from './pg-schema';
import { killAll, type ServerProcess, spawnServer } from './server-process';
import { createStore, type ServerStore } from './server-store';
import type { SignedUp } from './test-app';

// Two real Parley processes (A and B) on one PostgreSQL schema and one Redis, for the tests of what must hold
// across processes. They run only in the PostgreSQL + Redis pass: `describe.skipIf(!twoProcessesEnabled)`.

export const twoProcessesEnabled = isPostgresUrl(process.env.DATABASE_URL) && !!process.env.REDIS_URL;

export interface TwoProcesses {
  store: ServerStore;
  a: ServerProcess;
  b: ServerProcess;
}

/**
 * Starts A and B before the calling describe block's tests and stops them after; call inside the block. `env`:
 * settings of both processes beyond the test defaults.
 */
export function useTwoProcesses(env?: Record<string, string>): () => TwoProcesses {
  let running: TwoProcesses | null = null;
  let store: ServerStore | null = null;
  beforeAll(async () => {
    store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    const redisUrl = process.env.REDIS_URL;
    const a = await spawnServer({ store, redisUrl, env, label: 'A', dataDir: path.join(store.dataDir, 'a') });
    const b = await spawnServer({ store, redisUrl, env, label: 'B', dataDir: path.join(store.dataDir, 'b') });
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

/** `from` starts a private chat with `to` through process `p`, asserting the 200; its chat_id. */
export async function startChatOn(p: ServerProcess, from: SignedUp, to: SignedUp): Promise<string> {
  const started = await p.get(`/api/chats/start/${to.user.username}/`, from.token);
  expect(started.status, started.text).toBe(200);
  return started.body.chat_id;
}
