import fs from 'node:fs';
import SQLite from 'better-sqlite3';
import pg from 'pg';

// The search index's size on disk. SQLite: the FTS5 tables' pages (dbstat) and the file without them.
// PostgreSQL: the GIN index (pg_relation_size) and the generated tsvector column's share of the table
// (pg_column_size, TOAST and compression included), against pg_total_relation_size of messages.
export interface IndexSize {
  dialect: 'sqlite' | 'postgres';
  messages: number;
  /** The index's bytes: the FTS5 tables, or the GIN index plus the tsvector column. */
  indexBytes: number;
  /** The same, per 1,000,000 messages. */
  indexBytesPerMillion: number;
  /** The whole database (SQLite file) or the messages table with its indexes and TOAST (PostgreSQL). */
  totalBytes: number;
  /** What that would be without the search index. */
  withoutBytes: number;
  /** Each part: FTS5 shadow tables, or GIN index and tsvector column. */
  parts: Record<string, number>;
}

export function sqliteIndexSize(file: string): IndexSize {
  const sqlite = new SQLite(file, { readonly: true });
  try {
    const rows = sqlite
      .prepare(`SELECT name, SUM(pgsize) AS bytes FROM dbstat WHERE name LIKE 'messages_fts%' GROUP BY name`)
      .all() as { name: string; bytes: number }[];
    const messages = sqlite.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const indexBytes = rows.reduce((n, r) => n + r.bytes, 0);
    const totalBytes = fs.statSync(file).size;
    return {
      dialect: 'sqlite',
      messages,
      indexBytes,
      indexBytesPerMillion: (indexBytes * 1e6) / messages,
      totalBytes,
      withoutBytes: totalBytes - indexBytes,
      parts: Object.fromEntries(rows.map((r) => [r.name, r.bytes])),
    };
  } finally {
    sqlite.close();
  }
}

export async function postgresIndexSize(url: string): Promise<IndexSize> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`SELECT
        (SELECT count(*) FROM messages) AS messages,
        pg_relation_size('messages_search') AS gin,
        (SELECT sum(pg_column_size(search)) FROM messages) AS tsvector,
        pg_total_relation_size('messages') AS total`);
    const r = rows[0] as Record<string, string>;
    const [messages, gin, tsvector, total] = [r.messages, r.gin, r.tsvector, r.total].map(Number) as number[];
    const indexBytes = (gin as number) + (tsvector as number);
    return {
      dialect: 'postgres',
      messages: messages as number,
      indexBytes,
      indexBytesPerMillion: (indexBytes * 1e6) / (messages as number),
      totalBytes: total as number,
      withoutBytes: (total as number) - indexBytes,
      parts: {
        'GIN index messages_search': gin as number,
        'tsvector column messages.search': tsvector as number,
      },
    };
  } finally {
    await client.end();
  }
}
