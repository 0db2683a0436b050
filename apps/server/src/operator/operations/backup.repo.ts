import type SQLite from 'better-sqlite3';

// The statements of `backup` and `restore`: a consistent copy of a live SQLite database, and what a
// copy refers to on disk.

/**
 * Writes a consistent copy of the whole database to `file` (which must not exist) in one read transaction:
 * everything committed before it began and nothing after. In WAL mode the server keeps writing meanwhile.
 */
export function snapshotInto(source: SQLite.Database, file: string): void {
  source.prepare('VACUUM INTO ?').run(file);
}

/** The migrations a database has run, in order. */
export function migrationsOf(db: SQLite.Database): string[] {
  const exists = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'")
    .get();
  if (!exists) return [];
  return (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map(
    (r) => r.name,
  );
}

/**
 * The storage keys of every file the database refers to: attachments and their thumbnails (`files`), people's
 * and groups' pictures (`users.avatar`, `chats.avatar`, stored under `avatars/`). Read-only, for the check that a
 * backup holds every file its database needs.
 */
export function referencedKeys(db: SQLite.Database): string[] {
  const rows = db
    .prepare(
      `SELECT storage_key AS key FROM files
       UNION SELECT thumb_key FROM files WHERE thumb_key IS NOT NULL
       UNION SELECT 'avatars/' || avatar FROM users WHERE avatar IS NOT NULL
       UNION SELECT 'avatars/' || avatar FROM chats WHERE avatar IS NOT NULL`,
    )
    .all() as { key: string }[];
  return rows.map((r) => r.key);
}

/** 'ok', or what SQLite found wrong with the file. */
export function quickCheck(db: SQLite.Database): string {
  const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
  return rows.map((r) => r.quick_check).join('; ');
}
