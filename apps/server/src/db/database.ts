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
 * Opens SQLite in DATA_DIR by default, or PostgreSQL through a pool when DATABASE_URL is postgres://. SQLite's
 * `commitsElsewhere` moves with every commit by another connection to the file (an operator's command, a second
 * process): what this process read stays true while neither it nor another wrote.
 */
export function createDb(
  config: Config,
  observe?: StatementObserver,
): { db: Db; dialect: DialectName; commitsElsewhere?: () => number } {
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
  const dataVersion = sqlite.prepare('PRAGMA data_version').pluck();
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log }),
    dialect: 'sqlite',
    commitsElsewhere: () => dataVersion.get() as number,
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and preparing costs SQLite as much as running (docs/PERFORMANCE.md); the
 * same few statements serve every message, so prepared statements are kept per SQL text. Kysely runs one query at
 * a time on the connection, so a cached statement is never in use twice at once.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (sql: string) => {
          let statement = cache.get(sql);
          if (!statement) {
            statement = rowsBuiltInJs(target.prepare(sql));
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
 * messages: 144 → 87 µs; docs/PERFORMANCE.md). Kysely only reads `reader`, `all` and `iterate` of a
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
