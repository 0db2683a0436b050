import { type Compilable, type CompiledQuery, type Kysely, SqliteAdapter } from 'kysely';
import type { Database } from './schema';

// Kysely builds and compiles a query on every call, which costs a hot read more than running it does
// (bench/findings/2026-11-25-history-page-statements.md). A prepared query is built and compiled once per
// dialect, with a placeholder where each parameter goes, and later runs only bind the values: the SQL stays
// written with Kysely, in the repo that owns it, and the same text reaches SQLite's statement cache
// (db/database.ts) or PostgreSQL.

/** Stands for a parameter while a prepared query is compiled. */
class Slot {
  constructor(readonly name: string) {}
}

/** What a compiled parameter becomes at run time: a named value, or the constant it was built with. */
type Binding = { slot: string } | { value: unknown };

interface Compiled {
  query: CompiledQuery;
  bindings: Binding[];
}

/**
 * A query built once by `build` and run with `params` bound in. `build` receives stand-ins for the parameters:
 * it may put each where a value goes (a comparison, `limit`, a `sql` template) but must not compute with it or
 * pass it as an `in` list, whose length is part of the SQL. Its own constants (a `'user'`, a `0`) stay as they
 * were built. Runs on a database or a transaction alike; compiled once per Kysely instance's dialect.
 */
export function prepared<P extends object, R>(
  build: (db: Kysely<Database>, params: P) => Compilable<R>,
): (db: Kysely<Database>, params: P) => Promise<R[]> {
  // Keyed by the dialect adapter, which a database's transactions share with it.
  const byDialect = new WeakMap<object, Compiled>();
  const compile = (db: Kysely<Database>): Compiled => {
    const stand = new Proxy({} as P, { get: (_, name) => new Slot(String(name)) });
    const query = build(db, stand).compile();
    const bindings = query.parameters.map(
      (p): Binding => (p instanceof Slot ? { slot: p.name } : { value: p }),
    );
    return { query, bindings };
  };
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byDialect.get(adapter);
    if (!compiled) {
      compiled = compile(db);
      byDialect.set(adapter, compiled);
    }
    const values = params as Record<string, unknown>;
    const parameters = compiled.bindings.map((b) => ('slot' in b ? values[b.slot] : b.value));
    const { rows } = await db.executeQuery<R>({ ...compiled.query, parameters } as CompiledQuery<R>);
    return rows;
  };
}

/**
 * An `in` list padded to the next power of two with its last value (a repeat changes nothing in `in`), so that
 * a statement over a varying number of ids has one of a few texts instead of one per count: SQLite keeps a
 * prepared statement per text (db/database.ts), and the send path's lists run from 1 to hundreds long.
 */
export function inList<T>(values: readonly T[]): T[] {
  const n = values.length;
  if (n <= 1) return [...values];
  const size = 2 ** Math.ceil(Math.log2(n));
  const last = values[n - 1] as T;
  return [...values, ...Array.from({ length: size - n }, () => last)];
}

/**
 * Rows cut into runs whose lengths are powers of two, longest first, at most `max` (itself one): each run is one
 * multi-row statement, so the statements take a few texts however many rows come (see inList).
 */
export function powerOfTwoRuns<T>(rows: readonly T[], max: number): T[][] {
  if (!(max >= 1)) throw new RangeError('A run holds one row at least.');
  const runs: T[][] = [];
  let at = 0;
  while (at < rows.length) {
    const left = rows.length - at;
    const size = Math.min(max, 2 ** Math.floor(Math.log2(left)));
    runs.push(rows.slice(at, at + size));
    at += size;
  }
  return runs;
}

/**
 * Rows to write in several multi-row statements where each statement text costs a prepared statement (SQLite:
 * powerOfTwoRuns), and in one where each statement costs a round trip instead (PostgreSQL).
 */
export function statementRuns<T>(db: Kysely<Database>, rows: readonly T[], max: number): T[][] {
  return db.getExecutor().adapter instanceof SqliteAdapter ? powerOfTwoRuns(rows, max) : [[...rows]];
}
