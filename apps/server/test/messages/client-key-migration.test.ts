import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/database';
import { clientKeyFirstMigration } from '../../src/db/migrations/0011-client-key-first';
import { insertMessages } from '../../src/modules/messages/message-inserts.repo';
import { searchMessages } from '../../src/modules/search/search.repo';
import { parseSearch, toFts5, toTsquery } from '../../src/modules/search/search-query';
import { openMigratingDb, seedMemberOfChat } from '../helpers/migrating-db';

// Migration 0011 puts client_id first in the key that makes a resend land once. On SQLite it makes
// the messages table again: every message must come through with its id, its search entry, its replies, files,
// reactions and edits, and the table must go on refusing a second copy and deleting with its chat.

describe('the client-key migration', () => {
  it('keeps every message and what hangs on it, and the key still refuses a resend', async () => {
    const { db, dialect, migrate, close } = await openMigratingDb('parley-client-key-');
    try {
      await migrate('0010-admin');
      const now = new Date().toISOString();
      const { userId, chatId } = await seedMemberOfChat(db, now);
      const row = (clientId: string | null, body: string) => ({
        chat_id: chatId,
        sender_id: userId,
        kind: 'user' as const,
        client_id: clientId,
        body,
        created_at: now,
        reply_to_id: null,
        mentions: '[]',
      });
      const first = await insertMessages(db, [row('a', 'Déploiement terminé'), row(null, 'second')]);
      const ids = first.map((m) => m.id);
      // A third message, deleted with its sender's account in real life: the ids handed out stay used.
      const gone = await insertMessages(db, [row('c', 'third')]);
      await db
        .deleteFrom('messages')
        .where('id', '=', gone[0]?.id as number)
        .execute();
      await db
        .updateTable('messages')
        .set({ reply_to_id: ids[0] as number, reaction_count: 1 })
        .where('id', '=', ids[1] as number)
        .execute();
      await db
        .insertInto('message_reactions')
        .values({ message_id: ids[1] as number, user_id: userId, emoji: '👍', created_at: now })
        .execute();
      await db
        .insertInto('message_edits')
        .values({ message_id: ids[0] as number, body: 'Deploiement', edited_at: now })
        .execute();

      await migrate();

      expect(await uniqueKeys(db, dialect)).toEqual([['client_id', 'sender_id', 'chat_id']]);
      // A start that stopped after SQLite's rebuild but before Kysely recorded it runs it again: it finds it made.
      if (dialect === 'sqlite') await clientKeyFirstMigration(dialect).up(db);
      const kept = await db.selectFrom('messages').selectAll().orderBy('id').execute();
      expect(kept.map((m) => [m.id, m.client_id, m.body, m.reply_to_id, m.reaction_count])).toEqual([
        [ids[0], 'a', 'Déploiement terminé', null, 0],
        [ids[1], null, 'second', ids[0], 1],
      ]);
      // What hangs on the messages is still there: the old table went with the foreign keys off.
      for (const table of ['message_reactions', 'message_edits'] as const) {
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
        expect(Number(rows[0]?.n), table).toBe(1);
      }
      const found = await searchMessages(db, dialect, {
        userId: userId,
        match:
          dialect === 'sqlite' ? toFts5(parseSearch('deploiement')) : toTsquery(parseSearch('deploiement')),
        limit: 10,
      });
      expect(found.map((h) => h.id)).toEqual([ids[0]]);

      // A resend of 'a' is skipped; a new message takes an id past every one handed out before.
      const again = await insertMessages(db, [row('a', 'Déploiement terminé'), row('d', 'fourth')]);
      expect(again.map((m) => m.client_id)).toEqual(['d']);
      expect(again[0]?.id).toBeGreaterThan(gone[0]?.id as number);

      // A message's replies are found by an index, not by reading every message (its deletion sets their
      // reply_to_id to NULL, once for each message of a deleted account).
      if (dialect === 'sqlite') {
        const { rows: plan } = await sql<{ detail: string }>`
          EXPLAIN QUERY PLAN UPDATE messages SET reply_to_id = NULL WHERE reply_to_id = ${ids[0]}`.execute(
          db,
        );
        expect(plan.map((p) => p.detail).join(' ')).toMatch(/USING (COVERING )?INDEX messages_reply_to/);
      } else {
        const { rows: index } =
          await sql`SELECT 1 FROM pg_indexes WHERE indexname = 'messages_reply_to' AND schemaname = current_schema()`.execute(
            db,
          );
        expect(index).toHaveLength(1);
      }
      await db
        .deleteFrom('messages')
        .where('id', '=', ids[0] as number)
        .execute();
      const reply = await db
        .selectFrom('messages')
        .select('reply_to_id')
        .where('id', '=', ids[1] as number)
        .executeTakeFirst();
      expect(reply?.reply_to_id).toBeNull();

      // The foreign keys hold in both directions: the chat's deletion takes its messages and what hangs on them.
      await db.deleteFrom('chats').where('id', '=', chatId).execute();
      for (const table of ['messages', 'message_reactions', 'message_edits'] as const) {
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
        expect(Number(rows[0]?.n), table).toBe(0);
      }
    } finally {
      await close();
    }
  });
});

/** The columns of each unique key on messages but its primary key, in index order. */
async function uniqueKeys(db: Db, dialect: string): Promise<string[][]> {
  if (dialect === 'postgres') {
    const { rows } = await sql<{ columns: string[] }>`
      SELECT array_agg(a.attname::text ORDER BY k.n) AS columns
      FROM pg_index i
      CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.attnum
      WHERE i.indrelid = 'messages'::regclass AND i.indisunique AND NOT i.indisprimary
      GROUP BY i.indexrelid`.execute(db);
    return rows.map((r) => r.columns);
  }
  const { rows: indexes } = await sql<{ name: string; unique: number; origin: string }>`
    PRAGMA index_list('messages')`.execute(db);
  const keys: string[][] = [];
  for (const index of indexes.filter((i) => i.unique && i.origin !== 'pk')) {
    const { rows } = await sql<{ name: string }>`SELECT name FROM pragma_index_info(${index.name})`.execute(
      db,
    );
    keys.push(rows.map((r) => r.name));
  }
  return keys;
}
