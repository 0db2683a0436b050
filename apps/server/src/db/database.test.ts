import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config';
import { createDb, type Db } from './database';

// SQLite rows are read as arrays and made into objects in JavaScript (faster than better-sqlite3's own
// objects): they must be the very rows better-sqlite3 would give.

let db: Db | null = null;
afterEach(async () => {
  await db?.destroy();
  db = null;
  vi.restoreAllMocks();
});

describe('SQLite statements', () => {
  it('are prepared once per SQL text, whatever values each run binds', async () => {
    const prepare = vi.spyOn(SQLite.prototype, 'prepare');
    db = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' })).db;
    const text = 'SELECT ? AS v';
    for (const v of [1, 2, 3]) {
      const { rows } = await sql`SELECT ${v} AS v`.execute(db);
      expect(rows).toEqual([{ v }]);
    }
    expect(prepare.mock.calls.filter(([source]) => source === text)).toHaveLength(1);
  });
});

describe('SQLite commits elsewhere', () => {
  it('move with another connection’s commit to the file, not with this connection’s own', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-db-'));
    try {
      const file = path.join(dir, 'parley.db');
      const opened = createDb(loadConfig({ DATABASE_URL: `sqlite:${file}` }));
      db = opened.db;
      const count = opened.commitsElsewhere as () => number;
      await sql`CREATE TABLE t (v TEXT)`.execute(db);
      const before = count();
      await sql`INSERT INTO t (v) VALUES ('own')`.execute(db);
      expect(count()).toBe(before);
      const other = new SQLite(file);
      other.prepare(`INSERT INTO t (v) VALUES ('other')`).run();
      other.close();
      expect(count()).not.toBe(before);
    } finally {
      await db?.destroy();
      db = null;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are not counted on PostgreSQL, whose other processes this one cannot see', () => {
    const opened = createDb(loadConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }));
    db = opened.db;
    expect(opened.commitsElsewhere).toBeUndefined();
  });
});

describe('SQLite rows', () => {
  it('are objects by column name, a repeated name keeping its last value, nulls and numbers as they are', async () => {
    db = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' })).db;
    const { rows } = await sql`SELECT 1 AS a, 'x' AS a, NULL AS b, 2.5 AS "c d"`.execute(db);
    expect(rows).toEqual([{ a: 'x', b: null, 'c d': 2.5 }]);
  });

  it('come the same through all, a stream, and statements that return rows after writing', async () => {
    db = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' })).db;
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)`.execute(db);
    const inserted = await sql`INSERT INTO t (v) VALUES ('a'), ('b') RETURNING id, v`.execute(db);
    expect(inserted.rows).toEqual([
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ]);
    const streamed: unknown[] = [];
    for await (const row of db
      .selectFrom('t' as never)
      .selectAll()
      .stream())
      streamed.push(row);
    expect(streamed).toEqual(inserted.rows);
    const updated = await sql`UPDATE t SET v = 'c' WHERE id = 2`.execute(db);
    expect(updated.numAffectedRows).toBe(1n);
  });
});

describe('SQLite transactions', () => {
  it('fail with the error that ended them when SQLite has already rolled them back', async () => {
    db = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' })).db;
    await sql`CREATE TABLE t (v TEXT)`.execute(db);
    // What SQLite does by itself after SQLITE_FULL (or an I/O error) in a transaction: the transaction ends.
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const failed = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('lost')`.execute(trx);
      await sql`ROLLBACK`.execute(trx);
      throw full;
    });
    await expect(failed).rejects.toBe(full);
    // None is left open: the next transaction begins and commits.
    await db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES ('kept')`.execute(trx));
    expect((await sql`SELECT v FROM t`.execute(db)).rows).toEqual([{ v: 'kept' }]);
  });

  it('are rolled back when a statement in them fails', async () => {
    db = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' })).db;
    await sql`CREATE TABLE t (v TEXT NOT NULL)`.execute(db);
    const failed = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('undone')`.execute(trx);
      await sql`INSERT INTO t (v) VALUES (NULL)`.execute(trx);
    });
    await expect(failed).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT_NOTNULL' });
    expect((await sql`SELECT v FROM t`.execute(db)).rows).toEqual([]);
  });
});
