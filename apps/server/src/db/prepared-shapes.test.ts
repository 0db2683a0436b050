import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inList, powerOfTwoRuns, statementRuns } from './prepared';
import type { Database } from './schema';

describe('inList', () => {
  it('pads a list to the next power of two with its last value', () => {
    expect(inList([])).toEqual([]);
    expect(inList([7])).toEqual([7]);
    expect(inList([1, 2])).toEqual([1, 2]);
    expect(inList([1, 2, 3])).toEqual([1, 2, 3, 3]);
    expect(inList([1, 2, 3, 4, 5])).toEqual([1, 2, 3, 4, 5, 5, 5, 5]);
    expect(
      new Set(
        Array.from({ length: 300 }, (_, n) => inList(Array.from({ length: n + 1 }, (_, i) => i)).length),
      ).size,
    ).toBe(10);
  });
});

describe('powerOfTwoRuns', () => {
  it('cuts rows into runs of powers of two, longest first, in order, none past the bound', () => {
    const rows = Array.from({ length: 13 }, (_, i) => i);
    expect(powerOfTwoRuns(rows, 256).map((r) => r.length)).toEqual([8, 4, 1]);
    expect(powerOfTwoRuns(rows, 256).flat()).toEqual(rows);
    expect(powerOfTwoRuns(rows, 4).map((r) => r.length)).toEqual([4, 4, 4, 1]);
    expect(powerOfTwoRuns([], 8)).toEqual([]);
    const big = Array.from({ length: 500 }, (_, i) => i);
    expect(powerOfTwoRuns(big, 256).map((r) => r.length)).toEqual([256, 128, 64, 32, 16, 4]);
  });
});

describe('statementRuns', () => {
  it('cuts rows into runs on SQLite and keeps them in one statement on PostgreSQL', () => {
    const rows = Array.from({ length: 7 }, (_, i) => i);
    const sqlite = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    const postgres = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
    expect(statementRuns(sqlite, rows, 256).map((r) => r.length)).toEqual([4, 2, 1]);
    expect(statementRuns(postgres, rows, 256)).toEqual([rows]);
    expect(() => powerOfTwoRuns(rows, 0)).toThrow(RangeError);
  });
});
