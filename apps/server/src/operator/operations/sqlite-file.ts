import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { Config } from '../../config';

// The operator commands that work on a SQLite server's files (copy-to-postgres, backup, restore) find its
// database where the server does, and tell a stopped server from a running one.

/** The SQLite file the server with this configuration uses (as db/database.ts opens it); null on PostgreSQL. */
export function sqliteFileOf(config: Config): string | null {
  const url = config.databaseUrl;
  if (url && /^postgres(ql)?:\/\//.test(url)) return null;
  if (url?.startsWith('sqlite:')) return path.resolve(url.slice('sqlite:'.length));
  return path.join(config.dataDir, 'parley.db');
}

export class DatabaseInUseError extends Error {
  constructor(file: string) {
    super(
      `The SQLite database ${file} is in use (is a Parley server running on it?). Stop every server that uses ` +
        'this DATA_DIR first.',
    );
  }
}

/**
 * Opens a stopped server's database and keeps it to itself until closed: an exclusive lock that a server holding
 * the file open (even idle: in WAL mode every connection holds a shared lock) prevents, and that keeps a server
 * from starting on it meanwhile. Throws DatabaseInUseError when someone has it open.
 */
export function openExclusive(file: string): SQLite.Database {
  if (!fs.existsSync(file)) {
    throw new Error(`No SQLite database at ${file} (set DATA_DIR to the server's data directory).`);
  }
  const db = new SQLite(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DatabaseInUseError(file);
    throw err;
  }
  return db;
}
