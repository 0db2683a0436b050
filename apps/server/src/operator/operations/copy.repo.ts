import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';

// The statements of `copy-to-postgres`: a SQLite server's tables as SQLite describes them, read in rowid order,
// and the PostgreSQL database they go to, described by its catalogue. Tables are found at run time, so every
// table a migration adds is copied without this file knowing its name.

export type Row = Record<string, unknown>;

// biome-ignore lint/suspicious/noExplicitAny: tables found at run time have no static types.
export type AnyDb = Kysely<any>;

export interface SourceTable {
  name: string;
  columns: string[];
  /** Tables this one's foreign keys point at (itself excluded). */
  references: string[];
}

/** Kysely's own bookkeeping: the target's migrations write their own. */
const isMigrationTable = (name: string) => name.startsWith('kysely_');

/**
 * The tables holding the data: every ordinary table but SQLite's own, Kysely's, and the shadow tables of virtual
 * tables (an FTS5 index `messages_fts` keeps `messages_fts_data`, `_idx`, `_content`, `_docsize`, `_config`),
 * which PostgreSQL replaces with its own search columns.
 */
export function sourceTables(source: SQLite.Database): SourceTable[] {
  const all = source
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all() as { name: string; sql: string | null }[];
  const virtual = all.filter((t) => /^\s*CREATE\s+VIRTUAL\s+TABLE/i.test(t.sql ?? '')).map((t) => t.name);
  const tables = all.filter(
    (t) =>
      !t.name.startsWith('sqlite_') &&
      !isMigrationTable(t.name) &&
      !virtual.some((v) => t.name === v || t.name.startsWith(`${v}_`)),
  );
  return tables.map(({ name }) => {
    const columns = (
      source.prepare('SELECT name FROM pragma_table_info(?) ORDER BY cid').all(name) as {
        name: string;
      }[]
    ).map((c) => c.name);
    const references = (
      source.prepare('SELECT DISTINCT "table" AS target FROM pragma_foreign_key_list(?)').all(name) as {
        target: string;
      }[]
    )
      .map((r) => r.target)
      .filter((target) => target !== name);
    return { name, columns, references };
  });
}

const quoteId = (name: string) => `"${name.replace(/"/g, '""')}"`;

export function countRows(source: SQLite.Database, table: string): number {
  return (source.prepare(`SELECT count(*) AS n FROM ${quoteId(table)}`).get() as { n: number }).n;
}

/** Up to `limit` rows after `afterRowid`, in rowid order; each row's rowid under ROWID_KEY. */
export const ROWID_KEY = '__parley_copy_rowid';
export function readBatch(source: SQLite.Database, table: string, afterRowid: number, limit: number): Row[] {
  return source
    .prepare(`SELECT rowid AS ${ROWID_KEY}, * FROM ${quoteId(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`)
    .all(afterRowid, limit) as Row[];
}

export interface TargetColumn {
  table: string;
  column: string;
  /** information_schema's data_type: 'integer', 'text', 'boolean', 'timestamp with time zone', … */
  type: string;
  /** Computed by PostgreSQL (the search tsvectors): never written. */
  generated: boolean;
}

/** The schema the target's connections work in (public, or the one the URL's search_path names). */
export async function targetSchema(db: AnyDb): Promise<string> {
  const { rows } = await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db);
  const schema = rows[0]?.schema;
  if (!schema) throw new Error('The PostgreSQL connection has no current schema (check the search_path).');
  return schema;
}

export async function targetTables(db: AnyDb, schema: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    SELECT tablename AS name FROM pg_tables WHERE schemaname = ${schema} ORDER BY tablename`.execute(db);
  return rows.map((r) => r.name).filter((name) => !isMigrationTable(name));
}

/** Removes every row of a table (rows its migration wrote, which the copy replaces with the source's). */
export async function clearTable(db: AnyDb, schema: string, table: string): Promise<void> {
  await sql`DELETE FROM ${sql.id(schema, table)}`.execute(db);
}

/** The first of these tables that holds a row, or null when all are empty. */
export async function firstNonEmpty(db: AnyDb, schema: string, tables: string[]): Promise<string | null> {
  for (const table of tables) {
    const { rows } = await sql<{ found: boolean }>`
      SELECT EXISTS (SELECT 1 FROM ${sql.id(schema, table)}) AS found`.execute(db);
    if (rows[0]?.found) return table;
  }
  return null;
}

export async function targetColumns(db: AnyDb, schema: string): Promise<TargetColumn[]> {
  const { rows } = await sql<{ table: string; column: string; type: string; generated: string }>`
    SELECT table_name AS table, column_name AS column, data_type AS type, is_generated AS generated
    FROM information_schema.columns WHERE table_schema = ${schema}
    ORDER BY table_name, ordinal_position`.execute(db);
  return rows.map((r) => ({ ...r, generated: r.generated === 'ALWAYS' }));
}

/**
 * Inserts a batch as one JSON parameter that PostgreSQL turns into rows of the table's own type
 * (json_populate_recordset): a statement is parsed once a batch whatever its size, and each value is read as its
 * column's type (true/false for booleans, ISO text for times, `\\x…` hex for bytea).
 */
export async function insertRows(
  db: AnyDb,
  schema: string,
  table: string,
  columns: string[],
  rows: Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const target = sql.id(schema, table);
  const list = sql.join(columns.map((c) => sql.id(c)));
  await sql`INSERT INTO ${target} (${list})
    SELECT ${list} FROM json_populate_recordset(NULL::${target}, ${JSON.stringify(rows)}::json)`.execute(db);
}

export async function targetCount(db: AnyDb, schema: string, table: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.id(schema, table)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Sets every sequence behind a column (serial ids) of these tables past the largest value copied, so the next
 * row gets a fresh id; an empty table's starts at 1. Returns how many were set.
 */
export async function resetSequences(db: AnyDb, schema: string, tables: string[]): Promise<number> {
  const { rows } = await sql<{ table: string; column: string; sequence: string }>`
    SELECT c.table_name AS table, c.column_name AS column,
      pg_get_serial_sequence(quote_ident(c.table_schema) || '.' || quote_ident(c.table_name), c.column_name) AS sequence
    FROM information_schema.columns c
    WHERE c.table_schema = ${schema} AND c.table_name = ANY(${tables})`.execute(db);
  let set = 0;
  for (const r of rows) {
    if (!r.sequence) continue;
    await sql`SELECT setval(${r.sequence}::regclass,
      COALESCE((SELECT max(${sql.id(r.column)}) FROM ${sql.id(schema, r.table)}), 0) + 1, false)`.execute(db);
    set += 1;
  }
  return set;
}

export async function analyze(db: AnyDb, schema: string, tables: string[]): Promise<void> {
  for (const table of tables) await sql`ANALYZE ${sql.id(schema, table)}`.execute(db);
}
