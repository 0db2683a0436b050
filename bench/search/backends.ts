import {
  createDb,
  type Database,
  type Db,
  type DialectName,
  loadConfig,
  type MessageSearch,
  parseSearch,
  searchMessages,
  toFts5,
  toTsquery,
} from '@parley/server';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { SEARCHER_ID } from './corpus';
import type { SearchQuery } from './queries';

// The three ways a query is run: Parley's HTTP route, the index's SQL alone (search.repo.ts in this process, the
// statement the route runs before it builds the page), and the baseline, a LIKE '%word%' scan over the same
// messages with the same membership filter: one prepared statement per dialect.
export const LIMIT = 20;

export type Runner = (q: SearchQuery) => Promise<number>;

export function httpRunner(url: string, token: string): Runner {
  const headers = { authorization: `Bearer ${token}` };
  return async (query) => {
    const params = new URLSearchParams({ q: query.q, limit: String(LIMIT) });
    if (query.from) params.set('from', query.from);
    const res = await fetch(`${url}/api/search/messages/?${params}`, { headers });
    const body = (await res.json()) as { results?: unknown[] };
    if (!res.ok)
      throw new Error(`search ${JSON.stringify(query)}: HTTP ${res.status} ${JSON.stringify(body)}`);
    return body.results?.length ?? 0;
  };
}

const config = (database: string) =>
  loadConfig({ DATABASE_URL: database.startsWith('postgres') ? database : `sqlite:${database}` });

/** The repo's arguments for a query, as SearchService builds them (the sender's id looked up beforehand). */
function repoSearch(dialect: DialectName, query: SearchQuery, senders: Map<string, number>): MessageSearch {
  const terms = parseSearch(query.q);
  return {
    userId: SEARCHER_ID,
    match: dialect === 'sqlite' ? toFts5(terms) : toTsquery(terms),
    senderId: query.from ? senders.get(query.from) : undefined,
    limit: LIMIT,
  };
}

export function sqlRunner(
  database: string,
  senders: Map<string, number>,
): { run: Runner; close(): Promise<void> } {
  const { db, dialect } = createDb(config(database));
  return {
    run: async (query) => (await searchMessages(db, dialect, repoSearch(dialect, query, senders))).length,
    close: () => db.destroy(),
  };
}

/** Bare words as '%word%' (phrases whole): at most two patterns, '%' standing in for a missing second. */
function likePatterns(q: string): [string, string] {
  const phrases = [...q.matchAll(/"([^"]+)"/g)].map((m) => m[1]?.trim().toLowerCase() ?? '');
  const bare = q
    .replace(/"[^"]*"/g, ' ')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  const [a = '', b] = [...phrases, ...bare];
  return [`%${a}%`, b ? `%${b}%` : '%'];
}

const LIKE_SQL = (like: string, p: (n: number) => string) =>
  `SELECT m.id FROM messages m JOIN chat_members cm ON cm.chat_id = m.chat_id AND cm.user_id = ${p(1)}
   WHERE m.id > cm.cleared_before_id AND m.deleted_at IS NULL AND m.kind = 'user'
     AND m.body ${like} ${p(2)} AND m.body ${like} ${p(3)} AND (${p(4)} IS NULL OR m.sender_id = ${p(5)})
   ORDER BY m.id DESC LIMIT ${LIMIT}`;

export async function likeRunner(
  database: string,
  senders: Map<string, number>,
): Promise<{ run: Runner; close(): Promise<void> }> {
  const args = (q: SearchQuery) => {
    const sender = q.from ? senders.get(q.from) : null;
    return [SEARCHER_ID, ...likePatterns(q.q), sender, sender];
  };
  if (database.startsWith('postgres')) {
    const client = new pg.Client({ connectionString: database });
    await client.connect();
    const text = LIKE_SQL('ILIKE', (n) => (n >= 4 ? `$${n}::int` : `$${n}`));
    return {
      // A named statement is prepared once by the server and reused.
      run: async (q) => (await client.query({ name: 'like-search', text, values: args(q) })).rowCount ?? 0,
      close: () => client.end(),
    };
  }
  const sqlite = new SQLite(database, { readonly: true });
  // SQLite's LIKE ignores case for ASCII letters, as ILIKE does.
  const statement = sqlite.prepare(LIKE_SQL('LIKE', () => '?'));
  return {
    run: async (q) => statement.all(...args(q)).length,
    close: async () => {
      sqlite.close();
    },
  };
}

/** The plan of the repo's statement for `query`: EXPLAIN QUERY PLAN (SQLite) or EXPLAIN (ANALYZE, BUFFERS). */
export async function explain(
  database: string,
  query: SearchQuery,
  senders: Map<string, number>,
): Promise<string> {
  const captured: { sql: string; parameters: readonly unknown[] }[] = [];
  const log = (e: { level: string; query: { sql: string; parameters: readonly unknown[] } }) => {
    if (e.level === 'query') captured.push(e.query);
  };
  const postgres = database.startsWith('postgres');
  const sqlite = postgres ? null : new SQLite(database, { readonly: true });
  const pool = postgres ? new pg.Pool({ connectionString: database, max: 1 }) : null;
  const db = new Kysely<Database>({
    dialect: sqlite
      ? new SqliteDialect({ database: sqlite })
      : new PostgresDialect({ pool: pool as pg.Pool }),
    log,
  }) as Db;
  try {
    const dialect: DialectName = postgres ? 'postgres' : 'sqlite';
    await searchMessages(db, dialect, repoSearch(dialect, query, senders));
    const statement = captured.at(-1);
    if (!statement) return '';
    if (sqlite)
      return (
        sqlite.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.parameters) as {
          detail: string;
        }[]
      )
        .map((r) => r.detail)
        .join('\n');
    const { rows } = await (pool as pg.Pool).query(`EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`, [
      ...statement.parameters,
    ]);
    return rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']).join('\n');
  } finally {
    await db.destroy();
  }
}

/** Usernames → ids, the same in both dialects (the PostgreSQL corpus keeps the SQLite file's ids). */
export function senderIds(corpusFile: string, usernames: string[]): Map<string, number> {
  const sqlite = new SQLite(corpusFile, { readonly: true });
  try {
    const byName = sqlite.prepare('SELECT id FROM users WHERE username = ?').pluck();
    return new Map(usernames.map((u) => [u, byName.get(u) as number]));
  } finally {
    sqlite.close();
  }
}
