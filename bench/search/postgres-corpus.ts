import { createDb, loadConfig, migrateToLatest } from '@parley/server';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CORPUS_VERSION } from './corpus';

// The same corpus in PostgreSQL: a database of its own on the bench's server (parley_bench_search_v<version>),
// kept between runs like the SQLite file and marked complete by a comment once loaded. The schema comes from
// Parley's migrations, so the generated tsvector column and its GIN index are migration 0006's; the rows are
// the SQLite file's, ids and all, in multi-row inserts.
export const pgDatabaseName = () => `parley_bench_search_v${CORPUS_VERSION}`;
const COMPLETE = 'parley search corpus: complete';
const TABLES = ['users', 'chats', 'chat_members', 'messages'] as const;
/** PostgreSQL takes at most 65,535 parameters per statement. */
const MAX_PARAMETERS = 60_000;

/** postgres://…/test → postgres://…/<database>. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function isComplete(admin: pg.Client, name: string): Promise<boolean | null> {
  const { rows } = await admin.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [name],
  );
  if (rows.length === 0) return null;
  return rows[0]?.comment === COMPLETE;
}

async function copyTable(sqlite: SQLite.Database, client: pg.Client, table: string) {
  const columns = (sqlite.prepare(`SELECT * FROM ${table} LIMIT 1`).columns() as { name: string }[]).map(
    (c) => c.name,
  );
  const perStatement = Math.floor(MAX_PARAMETERS / columns.length);
  const rows = sqlite.prepare(`SELECT ${columns.join(', ')} FROM ${table} ORDER BY id`).raw();
  let batch: unknown[][] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch
      .map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`)
      .join(', ');
    await client.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES ${values}`, batch.flat());
    batch = [];
  };
  for (const row of rows.iterate() as Iterable<unknown[]>) {
    batch.push(row);
    if (batch.length === perStatement) await flush();
  }
  await flush();
  await client.query(
    `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
  );
}

/** The corpus database on the bench's PostgreSQL server, loaded from `sqliteFile` first if it is not complete. */
export async function ensurePostgresCorpus(
  serverUrl: string,
  sqliteFile: string,
  log: (line: string) => void,
): Promise<{ url: string; generatedSeconds: number | null }> {
  const name = pgDatabaseName();
  const url = databaseUrl(serverUrl, name);
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const complete = await isComplete(admin, name);
    if (complete) return { url, generatedSeconds: null };
    if (complete === false) await admin.query(`DROP DATABASE ${name}`);
    const started = Date.now();
    log(`  loading the search corpus into PostgreSQL (database ${name})`);
    await admin.query(`CREATE DATABASE ${name}`);
    const { db, dialect } = createDb(loadConfig({ DATABASE_URL: url }));
    try {
      await migrateToLatest(db, dialect);
    } finally {
      await db.destroy();
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const sqlite = new SQLite(sqliteFile, { readonly: true });
    try {
      await client.query(`SET synchronous_commit = off`);
      // A large pending list lets GIN take many rows per merge while the messages pour in.
      await client.query(`SET gin_pending_list_limit = '64MB'`);
      for (const table of TABLES) {
        await client.query('BEGIN');
        await copyTable(sqlite, client, table);
        await client.query('COMMIT');
        log(`    PostgreSQL: ${table} copied (${((Date.now() - started) / 1000).toFixed(0)} s)`);
      }
      await client.query('VACUUM ANALYZE');
    } finally {
      sqlite.close();
      await client.end();
    }
    await admin.query(`COMMENT ON DATABASE ${name} IS '${COMPLETE}'`);
    return { url, generatedSeconds: (Date.now() - started) / 1000 };
  } finally {
    await admin.end();
  }
}
