import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { migrateToLatest } from '../../db/migrate';
import {
  type AnyDb,
  analyze,
  clearTable,
  countRows,
  firstNonEmpty,
  insertRows,
  ROWID_KEY,
  type Row,
  readBatch,
  resetSequences,
  type SourceTable,
  sourceTables,
  type TargetColumn,
  targetColumns,
  targetCount,
  targetSchema,
  targetTables,
} from './copy.repo';
import { ProgressLine } from './progress';
import { openExclusive } from './sqlite-file';

// `npm run admin -- copy-to-postgres <url>`: a stopped SQLite server's whole database into an empty
// PostgreSQL database, which the copy first migrates as a server would. Everything is copied in one transaction
// (in batches, with a progress line), so a failure leaves the target as empty as it was; row counts are compared
// and the id sequences set past the copied ids before it commits. The search index needs no copying: PostgreSQL
// computes its tsvector columns from the rows as they arrive.

export class TargetNotEmptyError extends Error {}

export interface CopyReport {
  tables: { name: string; rows: number }[];
  sequences: number;
}

export interface CopyOptions {
  sourceFile: string;
  targetUrl: string;
  /** Where the progress line and per-table lines go. */
  progressTo: NodeJS.WriteStream;
}

/** A URL fit to print: the password replaced. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

/** Parents before children, so every foreign key finds its row; a table's own rows go in rowid order. */
export function inDependencyOrder(tables: SourceTable[]): SourceTable[] {
  const names = new Set(tables.map((t) => t.name));
  const placed = new Set<string>();
  const ordered: SourceTable[] = [];
  while (ordered.length < tables.length) {
    const ready = tables.filter(
      (t) => !placed.has(t.name) && t.references.every((r) => placed.has(r) || !names.has(r)),
    );
    if (ready.length === 0) {
      const left = tables.filter((t) => !placed.has(t.name)).map((t) => t.name);
      throw new Error(`These tables' foreign keys form a cycle, so no copy order works: ${left.join(', ')}`);
    }
    for (const t of ready) {
      placed.add(t.name);
      ordered.push(t);
    }
  }
  return ordered;
}

/**
 * A SQLite value as the PostgreSQL column takes it. Parley stores booleans as 0/1 and times as ISO text in both
 * dialects today; a column a later migration gives a native type (boolean, timestamptz, bytea, json) still copies.
 */
export function toTargetValue(value: unknown, type: string, where: string): unknown {
  if (value === null || value === undefined) return null;
  const refuse = (): never => {
    throw new Error(
      `${where}: cannot store ${typeof value} ${JSON.stringify(String(value).slice(0, 40))} as ${type}`,
    );
  };
  switch (type) {
    case 'boolean':
      if (typeof value === 'number' || typeof value === 'bigint') return Number(value) !== 0;
      if (typeof value === 'string' && /^(0|1|t|f|true|false)$/i.test(value))
        return /^(1|t|true)$/i.test(value);
      return refuse();
    case 'timestamp with time zone':
    case 'timestamp without time zone':
    case 'date':
      if (typeof value === 'string') return value;
      // A number of seconds or milliseconds since 1970.
      if (typeof value === 'number')
        return new Date(Math.abs(value) < 1e11 ? value * 1000 : value).toISOString();
      return refuse();
    case 'smallint':
    case 'integer':
    case 'bigint':
      if (typeof value === 'number') return value;
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'string' && /^-?\d+$/.test(value.trim())) return value.trim();
      return refuse();
    case 'text':
    case 'character varying':
    case 'character':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'bigint') return String(value);
      return refuse();
    case 'bytea':
      // PostgreSQL's hex form: rows travel as JSON.
      if (Buffer.isBuffer(value)) return `\\x${value.toString('hex')}`;
      if (typeof value === 'string') return `\\x${Buffer.from(value, 'utf8').toString('hex')}`;
      return refuse();
    case 'json':
    case 'jsonb':
      // Stored as text in SQLite; the row carries the value itself, not a string of it.
      if (typeof value !== 'string') return value;
      try {
        return JSON.parse(value);
      } catch {
        return refuse();
      }
    default:
      return value;
  }
}

/**
 * Tables a fresh database already has rows in, written by the migrations themselves (default settings): found
 * by migrating an empty in-memory database. They do not make a target "not empty", and the copy replaces their
 * rows with the source's.
 */
async function tablesMigrationsFill(): Promise<Set<string>> {
  const memory = new SQLite(':memory:');
  const db: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: memory }) });
  try {
    await migrateToLatest(db, 'sqlite');
    return new Set(
      sourceTables(memory)
        .filter((t) => countRows(memory, t.name) > 0)
        .map((t) => t.name),
    );
  } finally {
    await db.destroy();
  }
}

interface TablePlan {
  name: string;
  rows: number;
  /** The source columns and their target types, in source order. */
  columns: { name: string; type: string }[];
  batchRows: number;
}

/** Matches each SQLite table to its PostgreSQL one; every source column must exist there (and not be computed). */
function plan(tables: SourceTable[], counts: Map<string, number>, target: TargetColumn[]): TablePlan[] {
  return tables.map((t) => {
    const targetCols = target.filter((c) => c.table === t.name);
    if (targetCols.length === 0) {
      throw new Error(
        `Table ${t.name} is in the SQLite database but not in PostgreSQL after migrating it: is this Parley ` +
          'older than the one that wrote the SQLite database?',
      );
    }
    const columns = t.columns.map((name) => {
      const col = targetCols.find((c) => c.column === name);
      if (!col || col.generated) {
        throw new Error(`Column ${t.name}.${name} has no writable counterpart in PostgreSQL.`);
      }
      return { name, type: col.type };
    });
    // PostgreSQL takes at most 65,535 parameters a statement.
    const batchRows = Math.max(1, Math.min(1000, Math.floor(20_000 / Math.max(1, columns.length))));
    return { name: t.name, rows: counts.get(t.name) ?? 0, columns, batchRows };
  });
}

export async function copyToPostgres(options: CopyOptions): Promise<CopyReport> {
  const out = options.progressTo;
  // Held exclusively until the end: a server cannot start on the file while it is being copied.
  const sqlite = openExclusive(options.sourceFile);
  const source: AnyDb = new Kysely({ dialect: new SqliteDialect({ database: sqlite }) });
  const target: AnyDb = new Kysely({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: options.targetUrl, max: 2 }) }),
  });
  try {
    // The source as this Parley knows it: a database left by an older version gets the newer migrations first.
    await migrateToLatest(source, 'sqlite');

    const schema = await targetSchema(target);
    const seeded = await tablesMigrationsFill();
    const refuseNonEmpty = async () => {
      const tables = (await targetTables(target, schema)).filter((t) => !seeded.has(t));
      const holder = await firstNonEmpty(target, schema, tables);
      if (holder) {
        throw new TargetNotEmptyError(
          `The PostgreSQL database already holds data (table ${holder} has rows). copy-to-postgres copies ` +
            'into an empty database only: create a new one (createdb) and give its URL.',
        );
      }
    };
    await refuseNonEmpty();
    out.write('Migrating the PostgreSQL database…\n');
    await migrateToLatest(target, 'postgres');
    await refuseNonEmpty();

    const tables = inDependencyOrder(sourceTables(sqlite));
    const counts = new Map(tables.map((t) => [t.name, countRows(sqlite, t.name)]));
    const plans = plan(tables, counts, await targetColumns(target, schema));
    const total = plans.reduce((sum, p) => sum + p.rows, 0);
    const progress = new ProgressLine(total, out);

    const sequences = await target.transaction().execute(async (trx) => {
      // Children first, so no foreign key is left pointing at a removed row.
      for (const p of [...plans].reverse()) if (seeded.has(p.name)) await clearTable(trx, schema, p.name);
      for (const p of plans) {
        let after = 0;
        let copied = 0;
        for (;;) {
          const batch = readBatch(sqlite, p.name, after, p.batchRows);
          if (batch.length === 0) break;
          after = Number(batch[batch.length - 1]?.[ROWID_KEY]);
          const rows = batch.map((r) => {
            const row: Row = {};
            for (const c of p.columns) row[c.name] = toTargetValue(r[c.name], c.type, `${p.name}.${c.name}`);
            return row;
          });
          try {
            await insertRows(
              trx,
              schema,
              p.name,
              p.columns.map((c) => c.name),
              rows,
            );
          } catch (err) {
            throw new Error(`Copying ${p.name} (rows up to rowid ${after}): ${(err as Error).message}`);
          }
          copied += rows.length;
          progress.advance(rows.length, p.name);
        }
        const landed = await targetCount(trx, schema, p.name);
        if (landed !== p.rows || copied !== p.rows) {
          throw new Error(`${p.name}: ${p.rows} rows in SQLite, ${landed} in PostgreSQL; nothing was kept.`);
        }
        progress.note(
          `  ${p.name.padEnd(28)} ${p.rows.toLocaleString('en').padStart(12)} ${p.rows === 1 ? 'row' : 'rows'}`,
        );
      }
      return resetSequences(
        trx,
        schema,
        plans.map((p) => p.name),
      );
    });
    progress.finish();
    await analyze(
      target,
      schema,
      plans.map((p) => p.name),
    );
    return { tables: plans.map((p) => ({ name: p.name, rows: p.rows })), sequences };
  } finally {
    await target.destroy();
    await source.destroy();
  }
}
