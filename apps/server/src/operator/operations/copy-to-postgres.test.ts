import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/migrate';
import { sourceTables } from './copy.repo';
import { inDependencyOrder, redactUrl, toTargetValue } from './copy-to-postgres';

// The parts of copy-to-postgres that need no PostgreSQL: which SQLite tables are data, in what order they can be
// copied, and how a SQLite value becomes a PostgreSQL one. The copy itself: test/operations/copy-to-postgres.

describe('sourceTables', () => {
  it("finds every migrated table, without SQLite's, Kysely's or the full-text indexes' own", async () => {
    const memory = new SQLite(':memory:');
    const db = new Kysely<Record<string, never>>({ dialect: new SqliteDialect({ database: memory }) });
    try {
      await migrateToLatest(db, 'sqlite');
      const names = sourceTables(memory).map((t) => t.name);
      for (const table of ['users', 'sessions', 'codes', 'chats', 'chat_members', 'messages', 'files'])
        expect(names).toContain(table);
      for (const table of ['message_edits', 'message_reactions', 'push_subscriptions', 'server_secrets'])
        expect(names).toContain(table);
      expect(names.filter((n) => /fts|^kysely_|^sqlite_/.test(n))).toEqual([]);
      const ordered = inDependencyOrder(sourceTables(memory)).map((t) => t.name);
      expect(ordered.indexOf('users')).toBeLessThan(ordered.indexOf('sessions'));
      expect(ordered.indexOf('sessions')).toBeLessThan(ordered.indexOf('push_subscriptions'));
      expect(ordered.indexOf('messages')).toBeLessThan(ordered.indexOf('files'));
    } finally {
      await db.destroy();
    }
  });
});

describe('inDependencyOrder', () => {
  it('puts parents first, lets a table refer to itself, and refuses a cycle', () => {
    const t = (name: string, ...references: string[]) => ({ name, columns: ['id'], references });
    expect(inDependencyOrder([t('b', 'a'), t('c', 'b'), t('a')]).map((x) => x.name)).toEqual(['a', 'b', 'c']);
    expect(inDependencyOrder([t('m')]).map((x) => x.name)).toEqual(['m']);
    expect(() => inDependencyOrder([t('x', 'y'), t('y', 'x')])).toThrow(/cycle.*x, y/);
  });
});

describe('toTargetValue', () => {
  it('turns 0/1 into booleans, numbers into times, and refuses what a column cannot hold', () => {
    expect(toTargetValue(1, 'boolean', 'u.a')).toBe(true);
    expect(toTargetValue(0, 'boolean', 'u.a')).toBe(false);
    expect(toTargetValue(null, 'boolean', 'u.a')).toBeNull();
    expect(toTargetValue('2026-11-25T08:00:00.000Z', 'timestamp with time zone', 'u.t')).toBe(
      '2026-11-25T08:00:00.000Z',
    );
    expect(toTargetValue(1_764_057_600, 'timestamp with time zone', 'u.t')).toBe('2025-11-25T08:00:00.000Z');
    expect(toTargetValue(1_764_057_600_000, 'timestamp with time zone', 'u.t')).toBe(
      '2025-11-25T08:00:00.000Z',
    );
    expect(toTargetValue(42, 'text', 'u.x')).toBe('42');
    expect(toTargetValue('7', 'integer', 'u.n')).toBe('7');
    expect(() => toTargetValue('seven', 'integer', 'u.n')).toThrow(
      /u\.n: cannot store string "seven" as integer/,
    );
    expect(() => toTargetValue('maybe', 'boolean', 'u.a')).toThrow(/as boolean/);
    expect(toTargetValue('{"a":[1]}', 'jsonb', 'u.j')).toEqual({ a: [1] });
    expect(() => toTargetValue('{oops', 'jsonb', 'u.j')).toThrow(/as jsonb/);
    expect(toTargetValue(Buffer.from([0, 255]), 'bytea', 'u.b')).toBe('\\x00ff');
  });
});

describe('redactUrl', () => {
  it('never prints a password', () => {
    expect(redactUrl('postgres://parley:s3cret@db:5432/parley')).toBe('postgres://parley:***@db:5432/parley');
    expect(redactUrl('not a url')).not.toContain('not a url');
  });
});
