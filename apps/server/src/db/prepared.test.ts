import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { memoryDb } from '../test-support/messages-world';
import type { Db } from './database';
import { prepared } from './prepared';

// A prepared query is built and compiled once per dialect; every run binds its own values, keeps the builder's
// own constants, and runs on a database and its transactions alike.

let db: Db | null = null;
afterEach(async () => {
  vi.restoreAllMocks();
  await db?.destroy();
  db = null;
});

const usersNamed = prepared((d, p: { prefix: string; limit: number }) =>
  d
    .selectFrom('users')
    .select(['id', 'username'])
    .where('username', 'like', sql<string>`${p.prefix} || '%'`)
    .where('is_activated', '=', 1)
    .orderBy('id')
    .limit(p.limit),
);

async function people(d: Db, names: string[]) {
  for (const username of names)
    await d
      .insertInto('users')
      .values({
        username,
        email: `${username}@example.test`,
        password_hash: 'not a hash',
        first_name: username,
        last_name: '',
        displayname: '',
        is_activated: username === 'adam' ? 0 : 1,
        read_receipt: 1,
        date_joined: new Date().toISOString(),
      })
      .execute();
}

describe('prepared', () => {
  it('binds each run’s values and keeps the query’s own constants', async () => {
    db = await memoryDb();
    await people(db, ['ada', 'adam', 'adele', 'grace']);
    const names = async (prefix: string, limit: number) =>
      (await usersNamed(db as Db, { prefix, limit })).map((u) => u.username);
    expect(await names('ad', 10)).toEqual(['ada', 'adele']);
    expect(await names('ad', 1)).toEqual(['ada']);
    expect(await names('gr', 10)).toEqual(['grace']);
    expect(await names('x', 10)).toEqual([]);
  });

  it('compiles once, then runs the same SQL text, in and out of transactions', async () => {
    db = await memoryDb();
    await people(db, ['ada', 'grace']);
    const compile = vi.fn();
    const counted = prepared((d, p: { name: string }) => {
      compile();
      return d.selectFrom('users').select('id').where('username', '=', p.name);
    });
    const seen: string[] = [];
    const execute = db.executeQuery.bind(db);
    vi.spyOn(db, 'executeQuery').mockImplementation((q) => {
      seen.push((q as { sql: string }).sql);
      return execute(q);
    });
    expect(await counted(db, { name: 'ada' })).toHaveLength(1);
    expect(await counted(db, { name: 'grace' })).toHaveLength(1);
    const inside = await db.transaction().execute((trx) => counted(trx, { name: 'ada' }));
    expect(inside).toHaveLength(1);
    expect(compile).toHaveBeenCalledTimes(1);
    expect(new Set(seen.slice(0, 2)).size).toBe(1);
  });
});
