import { randomBytes } from 'node:crypto';
import pg from 'pg';

// PostgreSQL isolation: each live test app has a schema of its own (the app puts it first on its
// search_path). Schemas are recycled within a test file: after an app closes its tables are emptied and
// the next app migrates (a no-op) onto it; the file's schemas are dropped when the file ends.
//
// Why not a fresh schema per app: Kysely's Migrator introspects every table of the database before it
// migrates, calling pg_get_serial_sequence() on each, which errors when another worker drops a table or
// schema at that moment. So migrating holds a shared advisory lock and dropping an exclusive one (ddlLock),
// and drops are rare: once per file, plus tests that run DDL of their own.

const DDL_LOCK_KEY = 0x7061726c; // 'parl'

export const isPostgresUrl = (url: string | undefined): url is string =>
  !!url && /^postgres(ql)?:\/\//.test(url);

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const withLock = <T>(url: string, mode: 'shared' | 'exclusive', fn: () => Promise<T>): Promise<T> =>
  // The lock is the session's: it goes when the client disconnects, whatever fn does.
  withClient(url, async (client) => {
    await client.query(
      mode === 'shared' ? 'SELECT pg_advisory_lock_shared($1)' : 'SELECT pg_advisory_lock($1)',
      [DDL_LOCK_KEY],
    );
    return fn();
  });

/** Runs `fn` while nobody migrates: for dropping tables or schemas. */
export const ddlLock = <T>(url: string, fn: () => Promise<T>): Promise<T> => withLock(url, 'exclusive', fn);

/** Runs `fn` (a migration) while nobody drops. */
export const migrationLock = <T>(url: string, fn: () => Promise<T>): Promise<T> =>
  withLock(url, 'shared', fn);

/** This file's schemas: `free` ones are migrated and empty, ready for the next app. */
const owned = new Set<string>();
const free: string[] = [];

const assertOurs = (name: string) => {
  if (!/^t_[0-9a-f]+$/.test(name)) throw new Error(`Not a test schema: ${name}`);
};

/** An empty schema for a new app: a recycled one, or a new one (the app's migrations fill it). */
export async function acquireSchema(url: string): Promise<string> {
  const recycled = free.pop();
  if (recycled) return recycled;
  const name = `t_${randomBytes(8).toString('hex')}`;
  await withClient(url, (client) => client.query(`CREATE SCHEMA ${name}`));
  owned.add(name);
  return name;
}

async function dropSchema(url: string, name: string): Promise<void> {
  assertOurs(name);
  owned.delete(name);
  await ddlLock(url, () =>
    withClient(url, (client) => client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)),
  );
}

/**
 * Gives a schema back once its app has stopped: emptied (rows, and id sequences reset) for the next app, or
 * dropped when `reusable` is false (its tables were changed by hand).
 */
export async function releaseSchema(url: string, name: string, reusable: boolean): Promise<void> {
  assertOurs(name);
  if (!reusable) return dropSchema(url, name);
  try {
    await withClient(url, async (client) => {
      // DELETE, not TRUNCATE: far cheaper on small tables. Foreign-key triggers are off for this session
      // (replica role) so the order does not matter; the id sequences start again at 1.
      const { rows: tables } = await client.query<{ tablename: string }>(
        `SELECT tablename FROM pg_tables WHERE schemaname = $1 AND tablename NOT LIKE 'kysely\\_%'`,
        [name],
      );
      const { rows: sequences } = await client.query<{ sequencename: string }>(
        'SELECT sequencename FROM pg_sequences WHERE schemaname = $1',
        [name],
      );
      const quote = (id: string) => `${name}."${id.replace(/"/g, '""')}"`;
      if (tables.length === 0) return;
      const statements = [
        'BEGIN',
        "SET LOCAL session_replication_role = 'replica'",
        ...tables.map((t) => `DELETE FROM ${quote(t.tablename)}`),
        ...sequences.map((q) => `SELECT setval('${quote(q.sequencename).replace(/'/g, "''")}', 1, false)`),
        'COMMIT',
      ];
      try {
        await client.query(statements.join(';\n'));
      } catch {
        // Not a superuser (replica role refused): TRUNCATE does the same, only slower.
        await client.query('ROLLBACK');
        const all = tables.map((t) => quote(t.tablename)).join(', ');
        await client.query(`TRUNCATE TABLE ${all} RESTART IDENTITY CASCADE`);
      }
    });
    free.push(name);
  } catch (err) {
    await dropSchema(url, name);
    throw err;
  }
}

/** Drops every schema this file made (after its last test). */
export async function dropOwnedSchemas(url: string): Promise<void> {
  free.length = 0;
  for (const name of [...owned]) await dropSchema(url, name);
}
