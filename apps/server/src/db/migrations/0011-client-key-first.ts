import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database';

// The key that makes a resend land once, (sender, chat, client_id), becomes (client_id, sender, chat): the
// same uniqueness and the same lookups by all three, in an order in which a time-ordered client_id (the web app's UUIDv7)
// is appended at the index's end instead of being inserted in the middle of its sender's range. Under load each
// message dirtied its own page of that index, written to the WAL and again at the checkpoint: with SQLite it cost
// two thirds of storing a message (bench/findings/2026-11-27-client-key-order.md).
const OLD = 'messages_sender_chat_client';
const NEW = 'messages_client_sender_chat';

export const clientKeyFirstMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    if (dialect === 'postgres') {
      await sql`ALTER TABLE messages DROP CONSTRAINT ${sql.id(OLD)}`.execute(db);
      await sql`ALTER TABLE messages ADD CONSTRAINT ${sql.id(NEW)} UNIQUE (client_id, sender_id, chat_id)`.execute(
        db,
      );
      return;
    }
    await rebuildMessagesTable(db);
  },
});

/**
 * SQLite cannot drop a table's UNIQUE constraint: the table is made again with the new one, as SQLite's
 * documentation describes (ALTER TABLE, "other kinds of table schema changes"), in one transaction with the
 * foreign keys off, keeping every row and its id, the AUTOINCREMENT counter, the indexes and the triggers (the
 * search index's). The search index's own tables hold rowids, which stay the same, so it needs no rebuild.
 */
async function rebuildMessagesTable(db: Kysely<any>): Promise<void> {
  const { rows: tables } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'messages'`.execute(db);
  const createSql = tables[0]?.sql;
  const oldConstraint = `constraint "${OLD}" unique ("sender_id", "chat_id", "client_id")`;
  // Made already by a run that stopped before Kysely recorded it (SQLite's migrations run outside a transaction).
  if (createSql?.includes(`constraint "${NEW}"`)) return;
  if (!createSql?.includes(oldConstraint))
    throw new Error(`messages has no constraint ${OLD} as 0002 made it`);
  const createNew = createSql
    .replace(/^CREATE TABLE "messages"/, 'CREATE TABLE "messages_rebuilt"')
    .replace(oldConstraint, `constraint "${NEW}" unique ("client_id", "sender_id", "chat_id")`);
  const { rows: dependents } = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master
    WHERE tbl_name = 'messages' AND type IN ('index', 'trigger') AND sql IS NOT NULL
    ORDER BY type, name`.execute(db);

  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      await sql.raw(createNew).execute(trx);
      await sql`INSERT INTO messages_rebuilt SELECT * FROM messages`.execute(trx);
      const { rows: counter } = await sql<{ seq: number }>`
        SELECT seq FROM sqlite_sequence WHERE name = 'messages'`.execute(trx);
      await sql`DROP TABLE messages`.execute(trx);
      await sql`ALTER TABLE messages_rebuilt RENAME TO messages`.execute(trx);
      // The counter of ids handed out, which may be past the highest id kept (a deleted account's messages).
      if (counter[0]) {
        await sql`UPDATE sqlite_sequence SET seq = max(seq, ${counter[0].seq}) WHERE name = 'messages'`.execute(
          trx,
        );
      }
      for (const { sql: text } of dependents) await sql.raw(text).execute(trx);
      const { rows: broken } = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.length > 0) throw new Error(`Rebuilding messages broke ${broken.length} foreign keys`);
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
