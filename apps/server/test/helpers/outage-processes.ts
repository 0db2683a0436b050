import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type CuttableProxy, startCuttableProxy, throughProxy } from './cuttable-proxy';
import { killAll, type ServerProcess, spawnServer } from './server-process';
import { createStore } from './server-store';
import type { Json } from './test-app';
import type { TwoProcesses } from './two-processes';

// Two real Parley processes (A and B) on one PostgreSQL schema and one Redis, for the outage tests: one of the
// two servers is reached through a proxy the test cuts, as a restart or a network fault does, while the
// machine's shared server keeps running. Every log line of each process is kept for the test's end.

export interface OutageProcesses extends TwoProcesses {
  /** The proxy in front of the server the outage takes away. */
  proxy: CuttableProxy;
  /** Every log line the process has written since it started, parsed. */
  log(proc: ServerProcess): Json[];
}

/**
 * Starts A and B before the calling describe block's tests, with `cut` (PostgreSQL or Redis) behind a proxy and
 * `env` added to their environment; stops them after. Call inside a `describe.skipIf(!twoProcessesEnabled)`.
 */
export function useOutageProcesses(
  cut: 'postgres' | 'redis',
  env: Record<string, string>,
): () => OutageProcesses {
  let running: OutageProcesses | null = null;
  let proxy: CuttableProxy | null = null;
  const logs = new Map<ServerProcess, Json[]>();
  let closeStore = async () => {};
  beforeAll(async () => {
    const store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    closeStore = () => store.close();
    const databaseUrl = store.databaseUrl as string;
    const redisUrl = process.env.REDIS_URL as string;
    const target = new URL(cut === 'postgres' ? databaseUrl : redisUrl);
    const cutProxy = await startCuttableProxy({
      host: target.hostname,
      port: Number(target.port || (cut === 'postgres' ? 5432 : 6379)),
    });
    proxy = cutProxy;
    const spawn = async (label: string) => {
      const proc = await spawnServer({
        store,
        redisUrl: cut === 'redis' ? throughProxy(redisUrl, cutProxy) : redisUrl,
        label,
        dataDir: path.join(store.dataDir, label.toLowerCase()),
        env: cut === 'postgres' ? { ...env, DATABASE_URL: throughProxy(databaseUrl, cutProxy) } : env,
      });
      logs.set(proc, captureLog(proc));
      return proc;
    };
    const a = await spawn('A');
    const b = await spawn('B');
    running = { store, proxy: cutProxy, a, b, log: (proc) => logs.get(proc) ?? [] };
  }, 120_000);
  afterAll(async () => {
    proxy?.restore();
    await killAll();
    await closeStore();
    await proxy?.close();
  });
  return () => {
    if (!running) throw new Error('the two processes are not running');
    return running;
  };
}

/** Every log line `proc` writes from now on, parsed (pino JSON); each stream keeps the partial line it ends on. */
function captureLog(proc: ServerProcess): Json[] {
  const lines: Json[] = [];
  const reader = () => {
    let partial = '';
    return (text: string) => {
      const parts = (partial + text).split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) {
        if (!part.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(part));
        } catch {
          // Not a log line.
        }
      }
    };
  };
  proc.child.stdout?.setEncoding('utf8').on('data', reader());
  proc.child.stderr?.setEncoding('utf8').on('data', reader());
  return lines;
}
