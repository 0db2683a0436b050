import SQLite from 'better-sqlite3';

/** The store floor's unique client key, the same as Parley's (migration 0011). */
export const FLOOR_CLIENT_KEY = 'client_id, sender_id, chat_id';

/**
 * The store floor's database (ws-sqlite.ts): a messages table shaped as Parley's (its columns, its unique
 * client key, its (chat, id) index and its FTS5 search index kept by trigger), in WAL mode with
 * synchronous=NORMAL, and no foreign keys. `uniqueKey` is the key's columns (null: none), for
 * bench/experiments/client-key-order.ts, which compares keys on this same table.
 */
export function openFloorStore(file: string, uniqueKey: string | null = FLOOR_CLIENT_KEY): SQLite.Database {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE messages (
      id INTEGER PRIMARY KEY AUTOINCREMENT, chat_id TEXT NOT NULL, sender_id INTEGER, kind TEXT NOT NULL,
      client_id TEXT, body TEXT NOT NULL, created_at TEXT NOT NULL, reply_to_id INTEGER,
      mentions TEXT NOT NULL DEFAULT '[]'${uniqueKey ? `, UNIQUE (${uniqueKey})` : ''});
    CREATE INDEX messages_chat_id ON messages (chat_id, id);
    CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='messages', content_rowid='id',
      tokenize='unicode61 remove_diacritics 2');
    CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
      INSERT INTO messages_fts(rowid, body) VALUES (new.id, new.body);
    END;
  `);
  return db;
}
