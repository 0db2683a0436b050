import { loadConfig } from '../config';
import { createDb, type Db } from '../db/database';
import { migrateToLatest } from '../db/migrate';

// A fresh in-memory SQLite database with the project's own migrations: the real tables, repos and
// transactions for a unit test, at no cost of files or servers.
export async function memoryDb(): Promise<Db> {
  const { db, dialect } = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' }));
  await migrateToLatest(db, dialect);
  return db;
}
