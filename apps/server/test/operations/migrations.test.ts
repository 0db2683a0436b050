import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { runMainToExit } from '../helpers/main-exit';

// Migrations at start: several processes starting at once on one database all come up, and a
// database migrated by a newer Parley is refused with a clear message. SQLite files here; the PostgreSQL pass
// runs every integration test's migrations concurrently in their own schemas already.
const NEWER = 'This database was migrated by a newer version of Parley (migration 9999-from-the-future).';

async function freshDb() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-migrate-'));
  const make = () => createDb(loadConfig({ DATA_DIR: dir }));
  return { dir, make };
}

describe('migrations at start', () => {
  it('are safe when several processes start at once on one database', async () => {
    const { dir, make } = await freshDb();
    const dbs = [make(), make(), make()];
    try {
      await Promise.all(dbs.map(({ db, dialect }) => migrateToLatest(db, dialect)));
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM kysely_migration`.execute(
        dbs[0]?.db as never,
      );
      expect(Number(rows[0]?.n)).toBeGreaterThanOrEqual(6);
    } finally {
      for (const { db } of dbs) await db.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('refuse a database migrated by a newer version, saying so', async () => {
    const { dir, make } = await freshDb();
    const { db, dialect } = make();
    try {
      await fromTheFuture(db, dialect);
      await expect(migrateToLatest(db, dialect)).rejects.toThrow(NEWER);
    } finally {
      await db.destroy();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('make a real process on such a database say so in one line, without a stack, and exit 1', async () => {
    const { dir, make } = await freshDb();
    const { db, dialect } = make();
    try {
      await fromTheFuture(db, dialect);
      await db.destroy();
      const run = await runMainToExit({ NODE_ENV: 'production', DATA_DIR: dir, PORT: '0' });
      expect(run.code).toBe(1);
      const lines = run.out.trim().split('\n');
      expect(lines, run.out).toHaveLength(1);
      expect(lines[0]).toContain(NEWER);
      expect(run.out).not.toMatch(/\n\s+at |NewerDatabaseError/);
    } finally {
      await db.destroy().catch(() => {});
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 150_000);
});

/** Migrates, then records a migration this code does not know, as a newer Parley would have. */
async function fromTheFuture(
  db: ReturnType<typeof createDb>['db'],
  dialect: ReturnType<typeof createDb>['dialect'],
) {
  await migrateToLatest(db, dialect);
  await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999-from-the-future', ${new Date().toISOString()})`.execute(
    db,
  );
}
