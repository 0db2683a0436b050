import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, type LogEvent, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

/** Told each statement's duration (the metrics' statement latency). */
export type StatementObserver = (ms: number, failed: boolean) => void;

/**
 * A stamp of the stored messages (SQLite only): it changes whenever they may have changed, by a statement of this
 * process that writes messages or deletes chats or people (whose messages go with them), or by any commit from
 * another connection to the file (SQLite's data_version). What is read under one stamp stays true while the stamp
 * holds: the newest history pages are kept so (modules/messages/newest-pages.ts).
 */
export type MessagesStamp = () => string;

/** Opens SQLite in DATA_DIR by default, or PostgreSQL through a pool when DATABASE_URL is postgres://. */
export function createDb(
  config: Config,
  observe?: StatementObserver,
): { db: Db; dialect: DialectName; messagesStamp?: MessagesStamp } {
  const log = observe
    ? (event: LogEvent) => observe(event.queryDurationMillis, event.level === 'error')
    : undefined;
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 20,
      options: config.databaseSchema ? `-c search_path=${config.databaseSchema}` : undefined,
    });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log }), dialect: 'postgres' };
  }
  const file = url?.startsWith('sqlite:')
    ? url.slice('sqlite:'.length)
    : path.join(config.dataDir, 'parley.db');
  if (file !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const writes = { count: 0 };
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return {
    db: new Kysely<Database>({
      dialect: new SqliteDialect({ database: withStatementCache(sqlite, writes) }),
      log,
    }),
    dialect: 'sqlite',
    messagesStamp: () => `${writes.count}:${dataVersion.get() as number}`,
  };
}

/**
 * Whether a statement may change stored messages: anything but a read that names the messages table, and the
 * deletion of a chat or a person, whose messages the foreign keys delete with them.
 */
export function mayChangeMessages(sql: string): boolean {
  const text = sql.trimStart().toLowerCase();
  if (/^(select|pragma|explain)\b/.test(text)) return false;
  return (
    /(^|[^\w"])"?messages"?($|[^\w"])/.test(text) || /^delete\s+from\s+"?(chats|users)"?($|[^\w"])/.test(text)
  );
}

/** Counts the runs of a statement that may change messages, each before it runs (a failed one counts too). */
function countingWrites(statement: SQLite.Statement, writes: { count: number }): SQLite.Statement {
  return new Proxy(statement, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      if (prop !== 'run' && prop !== 'all' && prop !== 'get' && prop !== 'iterate') return value.bind(target);
      return (...params: unknown[]) => {
        writes.count++;
        return value.apply(target, params);
      };
    },
  });
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and preparing costs SQLite as much as running (docs/benchmarks.md,
 * Findings 1); the same few statements serve every message, so prepared statements are kept per SQL text.
 * Kysely runs one query at a time on the connection, so a cached statement is never in use twice at once.
 */
function withStatementCache(sqlite: SQLite.Database, writes: { count: number }): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (sql: string) => {
          let statement = cache.get(sql);
          if (!statement) {
            statement = rowsBuiltInJs(target.prepare(sql));
            if (mayChangeMessages(sql)) statement = countingWrites(statement, writes);
            if (cache.size >= STATEMENT_CACHE_SIZE) cache.clear();
            cache.set(sql, statement);
          }
          return statement;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/**
 * The same rows, built faster: better-sqlite3 makes each row object in C++ one property at a time, which costs
 * nearly twice what reading the values as arrays and making the objects in JavaScript does (a history page of 50
 * messages: 144 → 87 µs; docs/benchmarks.md, finding 7). Kysely only reads `reader`, `all` and `iterate` of a
 * statement that returns rows; one that returns none is left as it is.
 */
function rowsBuiltInJs(statement: SQLite.Statement): SQLite.Statement {
  if (!statement.reader) return statement;
  statement.raw(true);
  const names = statement.columns().map((c) => c.name);
  const toRow = (values: unknown[]) => {
    // A name given twice keeps its last value, as better-sqlite3's own rows do.
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i] as string] = values[i];
    return row;
  };
  const rows = {
    reader: true,
    all: (...params: unknown[]) => (statement.all(...params) as unknown[][]).map(toRow),
    *iterate(...params: unknown[]) {
      for (const values of statement.iterate(...params)) yield toRow(values as unknown[]);
    },
  };
  return rows as unknown as SQLite.Statement;
}
