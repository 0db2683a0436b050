import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { FastifyBaseLogger } from 'fastify';
import {
  type Driver,
  Kysely,
  type LogEvent,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  SqliteDialect,
} from 'kysely';
import pg from 'pg';
import type { Config } from '../config';
import { DatabaseUnavailableError, isDatabaseUnreachable } from '../platform/errors';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

/** Told each statement's duration (the metrics' statement latency). */
export type StatementObserver = (ms: number, failed: boolean) => void;

/**
 * Opens SQLite in DATA_DIR by default, or PostgreSQL through a pool when DATABASE_URL is postgres://. SQLite's
 * `commitsElsewhere` moves with every commit by another connection to the file (an operator's command, a second
 * process): what this process read stays true while neither it nor another wrote. `writes` moves with those
 * and with every row this process's own connection inserts, changes or deletes.
 */
export function createDb(
  config: Config,
  observe?: StatementObserver,
  /** Where a PostgreSQL outage is told, once (see DatabaseOutage); untold without it. */
  logger?: FastifyBaseLogger,
): { db: Db; dialect: DialectName; commitsElsewhere?: () => number; writes?: () => number } {
  const log = observe
    ? (event: LogEvent) => observe(event.queryDurationMillis, event.level === 'error')
    : undefined;
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({
      connectionString: url,
      max: 20,
      // A server that does not answer (a failover's old address) fails a request after this long, rather than
      // holding it until the system's TCP timeout; a refused or reset connection fails at once anyway.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      options: config.databaseSchema ? `-c search_path=${config.databaseSchema}` : undefined,
    });
    const dialect = new PostgresDialect({ pool: guarded(pool, new DatabaseOutage(logger)) });
    return { db: new Kysely<Database>({ dialect, log }), dialect: 'postgres' };
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
  const changedRows = sqlite.prepare('SELECT total_changes()').pluck();
  return {
    db: new Kysely<Database>({ dialect: new SqliteAfterAutoRollbackDialect(sqlite), log }),
    dialect: 'sqlite',
    commitsElsewhere: () => dataVersion.get() as number,
    // Both only grow: their sum moves with every row this connection writes and every commit of another.
    writes: () => (changedRows.get() as number) + (dataVersion.get() as number),
  };
}

/** How long a new PostgreSQL connection may take (a request waits for it at most this long). */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * PostgreSQL's outage as this process sees it (a restart, a failover, a network cut): the first connection that
 * fails logs one warning, the first connection made afterwards one info line with how long it lasted and how
 * many statements were refused meanwhile, so an outage is two lines whatever the traffic.
 */
export class DatabaseOutage {
  private since: number | null = null;
  private refused = 0;

  constructor(private readonly log?: FastifyBaseLogger) {}

  get ongoing(): boolean {
    return this.since !== null;
  }

  /** A connection failed or was lost (`err`: the driver's error, of which only its code or message is told). */
  lost(err: unknown): void {
    if (this.since !== null) return;
    this.since = Date.now();
    this.log?.warn(
      { database: 'postgres', code: codeOf(err) },
      'PostgreSQL does not answer; requests get 503 until it does',
    );
  }

  /** A statement refused with 503 because of the outage. */
  refuse(err: unknown): DatabaseUnavailableError {
    this.lost(err);
    this.refused += 1;
    return err instanceof DatabaseUnavailableError ? err : new DatabaseUnavailableError(err);
  }

  /** A new connection was made. */
  back(): void {
    if (this.since === null) return;
    this.log?.info(
      { database: 'postgres', downForMs: Date.now() - this.since, refused: this.refused },
      'PostgreSQL answers again',
    );
    this.since = null;
    this.refused = 0;
  }
}

const codeOf = (err: unknown): string => {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return err instanceof Error ? err.message : String(err);
};

/**
 * The pool as Kysely uses it, made to outlive a PostgreSQL outage: a client that loses its connection while
 * idle or between statements emits `error` (node-postgres's pool re-emits an idle client's), which would end
 * the process unheard; here it is noted as the outage. A connection or statement that fails because the server
 * cannot be reached rejects with DatabaseUnavailableError (503 to HTTP, a resendable refusal to a socket), and
 * its client is not put back in the pool.
 */
function guarded(pool: pg.Pool, outage: DatabaseOutage): PostgresPool {
  pool.on('error', (err) => outage.lost(err));
  pool.on('connect', (client) => {
    client.on('error', (err) => outage.lost(err));
    outage.back();
  });
  // One wrapper per client: Kysely keeps its connection object per client it is given.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapper = wrappers.get(client);
    if (wrapper) return wrapper;
    /** The connection error of a statement since this client was taken from the pool. */
    let broken: Error | undefined;
    wrapper = {
      query: ((...args: [string, unknown[]]) => {
        const result: unknown = client.query(...args);
        // A cursor (streamed rows) is handed back as it is.
        if (!(result instanceof Promise)) return result;
        return result.catch((err: unknown) => {
          if (!isDatabaseUnreachable(err)) throw err;
          broken = err as Error;
          throw outage.refuse(err);
        });
      }) as PostgresPoolClient['query'],
      release: () => {
        // A client whose connection failed is dropped, not handed to the next statement.
        const err = broken;
        broken = undefined;
        client.release(err);
      },
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };
  return {
    async connect() {
      try {
        return wrap(await pool.connect());
      } catch (err) {
        throw isDatabaseUnreachable(err) ? outage.refuse(err) : err;
      }
    },
    end: () => pool.end(),
  };
}

/**
 * SQLite may end a transaction by itself when a statement in it fails with SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_BUSY or SQLITE_NOMEM. Kysely's ROLLBACK would then fail with 'cannot rollback - no transaction is
 * active' and be thrown in place of the error that caused it (a full disk told as any failed write), so the
 * ROLLBACK is sent only while a transaction is open. Kysely runs one query at a time on the connection, so the
 * check cannot race another statement.
 */
class SqliteAfterAutoRollbackDialect extends SqliteDialect {
  constructor(private readonly sqlite: SQLite.Database) {
    super({ database: withStatementCache(sqlite) });
  }

  override createDriver(): Driver {
    const driver = super.createDriver();
    const rollback = driver.rollbackTransaction.bind(driver);
    driver.rollbackTransaction = async (connection) => {
      if (this.sqlite.inTransaction) await rollback(connection);
    };
    return driver;
  }
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
