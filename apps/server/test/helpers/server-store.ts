import { randomInt } from 'node:crypto';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { acquireSchema, isPostgresUrl, migrationLock, releaseSchema } from './pg-schema';

// The database that real server processes share in the scale-out and fault tests: a SQLite file in a DATA_DIR,
// or a fresh PostgreSQL schema reached through `?options=-c search_path=<schema>` on DATABASE_URL (the server
// has no schema variable), migrated before any process starts, with a Kysely handle for seeding and inspecting.

export interface ServerStore {
  dialect: 'sqlite' | 'postgres';
  /** DATA_DIR of the processes (the SQLite file lives there); kept across restarts. */
  dataDir: string;
  /** DATABASE_URL for the processes (undefined: SQLite in dataDir). */
  databaseUrl: string | undefined;
  /** The test's own handle on the same database (seeding, inspection). */
  db: Db;
  /** Runs `fn` (a process start: its migrator introspects every schema) under the shared migration lock. */
  startGuard<T>(fn: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** A PostgreSQL server URL (a fresh schema is made in it); SQLite when absent. */
  postgresUrl?: string;
  /** DATA_DIR (made if missing; a disk of the test's own, say); a fresh temp directory when absent. */
  dataDir?: string;
}

/** postgres://…/db plus `options=-c search_path=<schema>`, which pg passes to the server at connect. */
export function withSearchPath(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

export async function createStore(options: StoreOptions = {}): Promise<ServerStore> {
  const dataDir = options.dataDir ?? (await fsp.mkdtemp(path.join(os.tmpdir(), 'parley-proc-')));
  await fsp.mkdir(dataDir, { recursive: true });
  const pgUrl = options.postgresUrl;
  if (!pgUrl) {
    const { db } = createDb(loadConfig({ DATA_DIR: dataDir }));
    await migrateToLatest(db, 'sqlite');
    return {
      dialect: 'sqlite',
      dataDir,
      databaseUrl: undefined,
      db,
      startGuard: (fn) => fn(),
      async close() {
        await db.destroy().catch(() => {});
        await fsp.rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  if (!isPostgresUrl(pgUrl)) throw new Error(`not a PostgreSQL URL: ${pgUrl}`);
  let db: Db | null = null;
  let schema: string | null = null;
  try {
    schema = await acquireSchema(pgUrl);
    await migrationLock(pgUrl, async () => {
      db = createDb(loadConfig({ DATA_DIR: dataDir, DATABASE_URL: pgUrl }, { databaseSchema: schema })).db;
      await migrateToLatest(db, 'postgres', schema);
      // User ids start at a random height: Redis keys (presence, rate limits, topics) are named by user id and
      // are not per schema, so runs and workers sharing one Redis must not meet on `parley:online:1`.
      await sql`SELECT setval(pg_get_serial_sequence('users', 'id'), ${randomInt(1_000_000, 1_000_000_000)})`.execute(
        db,
      );
    });
  } catch (err) {
    await (db as Db | null)?.destroy().catch(() => {});
    if (schema) await releaseSchema(pgUrl, schema, false).catch(() => {});
    await fsp.rm(dataDir, { recursive: true, force: true });
    throw err;
  }
  const handle = db as unknown as Db;
  const name = schema as unknown as string;
  return {
    dialect: 'postgres',
    dataDir,
    databaseUrl: withSearchPath(pgUrl, name),
    db: handle,
    startGuard: (fn) => migrationLock(pgUrl, fn),
    async close() {
      await handle.destroy().catch(() => {});
      await releaseSchema(pgUrl, name, false).catch(() => {});
      await fsp.rm(dataDir, { recursive: true, force: true });
    },
  };
}
