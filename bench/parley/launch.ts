import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@parley/server';
import pg from 'pg';
import { freePort, type Managed, probeFlags, repoDir, startProcess, waitForHttp } from '../lib/proc';
import { type SeedResult, type SeedSpec, seedParley } from './seed';

// Starts Parley as it runs in production (the built bundle, NODE_ENV=production) on a fresh database:
// SQLite in a temporary DATA_DIR, or a schema of its own in PostgreSQL; optionally several processes over Redis.
// BENCH_PARLEY_MAIN names another bundle (a build of work in progress kept apart from the one e2e tests run).
export const parleyMain = process.env.BENCH_PARLEY_MAIN
  ? path.resolve(process.env.BENCH_PARLEY_MAIN)
  : path.join(repoDir, 'apps/server/dist/main.js');

export interface ParleyOptions {
  db: 'sqlite' | 'postgres';
  processes: number;
  redisUrl?: string;
  postgresUrl: string;
  seed: SeedSpec;
  /** Extra Node flags for the server processes (bench/profile.ts passes --cpu-prof). */
  nodeFlags?: string[];
  /** More of the processes' environment. */
  env?: Record<string, string>;
}

export interface ParleyRun {
  urls: string[];
  procs: Managed[];
  statsFiles: string[];
  seed: SeedResult;
  /** The server's DATA_DIR (its SQLite database is parley.db in it). */
  dataDir: string;
  /**
   * Restarts process `i` as an operator would: SIGTERM (a graceful stop), then the same command on the same port.
   * Resolves once the new process answers; says how long the stop and the start took.
   */
  restart(i?: number): Promise<{ stopSeconds: number; startSeconds: number }>;
  stop(): Promise<void>;
}

/**
 * The advisory lock apps/server/test/helpers/pg-schema.ts takes: migrating (Kysely introspects every schema of
 * the database) holds it shared, dropping a schema holds it exclusively, so a bench and a test suite sharing
 * the database never trip over each other's DDL.
 */
const DDL_LOCK_KEY = 0x7061726c;

async function pgClient(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** postgres://…/db with `search_path` set to `schema` for every pooled connection Parley opens. */
const withSchema = (url: string, schema: string) =>
  `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;

/** The environment Parley runs under in every benchmark: production, quiet, loopback, no message rate limit. */
export const parleyEnv = (dataDir: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  MESSAGE_RATE_LIMIT: '1000000000',
});

export async function launchParley(opts: ParleyOptions): Promise<ParleyRun> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const env = { ...parleyEnv(dataDir), ...opts.env };
  // For bench/experiments/sqlite-query-timer.mjs.
  if (process.env.BENCH_QUERY_LOG) env.BENCH_QUERY_LOG = process.env.BENCH_QUERY_LOG;
  // Held (shared) while the seed and the processes migrate; released once they all listen.
  let migrationLock: pg.Client | null = null;
  if (opts.db === 'postgres') {
    migrationLock = await pgClient(opts.postgresUrl);
    await migrationLock.query('SELECT pg_advisory_lock_shared($1)', [DDL_LOCK_KEY]);
    // Kysely's Migrator looks for its bookkeeping tables in every schema: this schema gets its own first.
    await migrationLock.query(`CREATE SCHEMA ${schema}`);
    await migrationLock.query(
      `CREATE TABLE ${schema}.kysely_migration (name varchar(255) NOT NULL PRIMARY KEY, timestamp varchar(255) NOT NULL)`,
    );
    await migrationLock.query(
      `CREATE TABLE ${schema}.kysely_migration_lock (id varchar(255) NOT NULL PRIMARY KEY, is_locked integer NOT NULL DEFAULT 0)`,
    );
    env.DATABASE_URL = withSchema(opts.postgresUrl, schema);
  }
  if (opts.redisUrl) env.REDIS_URL = opts.redisUrl;
  // Emulated (`npm run bench:vm`), a 30 s liveness round over 100,000 sockets outlasts its interval and cuts off
  // sockets whose starved clients answered late: an hour's rounds leave the idle rows to what they measure.
  if (process.env.BENCH_VM === 'tcg') env.SOCKET_PING_SECONDS = '3600';

  const procs: Managed[] = [];
  const releaseLock = async () => {
    await migrationLock?.end();
    migrationLock = null;
  };
  const cleanup = async () => {
    await releaseLock();
    await Promise.all(procs.map((p) => p.stop()));
    fs.rmSync(dataDir, { recursive: true, force: true });
    if (opts.db === 'postgres') {
      const admin = await pgClient(opts.postgresUrl);
      await admin.query('SELECT pg_advisory_lock($1)', [DDL_LOCK_KEY]);
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  };
  try {
    const seed = await seedParley(loadConfig(env), opts.seed);
    const urls: string[] = [];
    const statsFiles: string[] = [];
    const ports: number[] = [];
    const startOne = async (i: number) => {
      const proc = startProcess(
        `parley-${i}`,
        process.execPath,
        [...probeFlags, ...(opts.nodeFlags ?? []), parleyMain],
        {
          ...env,
          PORT: String(ports[i]),
          BENCH_STATS_FILE: statsFiles[i],
        },
      );
      procs[i] = proc;
      await waitForHttp(`${urls[i]}/api/health`, proc);
    };
    for (let i = 0; i < opts.processes; i++) {
      ports.push(await freePort());
      urls.push(`http://127.0.0.1:${ports[i]}`);
      statsFiles.push(path.join(dataDir, `stats-${i}.json`));
      await startOne(i);
    }
    await releaseLock();
    const restart = async (i = 0) => {
      const stopping = performance.now();
      await procs[i]?.stop();
      const starting = performance.now();
      await startOne(i);
      return {
        stopSeconds: (starting - stopping) / 1000,
        startSeconds: (performance.now() - starting) / 1000,
      };
    };
    return { urls, procs, statsFiles, seed, dataDir, restart, stop: cleanup };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
