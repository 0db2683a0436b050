import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { searchMessages } from '../../src/modules/search/search.repo';
import { parseSearch, toFts5, toTsquery } from '../../src/modules/search/search-query';
import { openMigratingDb, seedMemberOfChat } from '../helpers/migrating-db';

// Messages written before search existed are found after the search migration: the migration
// indexes them (FTS5 'rebuild' on SQLite; the generated tsvector column computes them on PostgreSQL).

describe('the search migration', () => {
  it('indexes the messages already stored', async () => {
    const { db, dialect, migrate, close } = await openMigratingDb('parley-search-migration-');
    try {
      await migrate('0005-message-essentials');
      const now = new Date().toISOString();
      const { userId, chatId } = await seedMemberOfChat(db, now);
      await db
        .insertInto('messages')
        .values({
          chat_id: chatId,
          sender_id: userId,
          kind: 'user',
          client_id: null,
          body: 'Déploiement terminé',
          created_at: now,
        })
        .execute();

      await migrate();
      const terms = parseSearch('deploiement');
      const hits = await searchMessages(db, dialect, {
        userId,
        match: dialect === 'sqlite' ? toFts5(terms) : toTsquery(terms),
        limit: 10,
      });
      expect(hits.map((h) => h.chat_id)).toEqual(['c1']);
      const count = await sql<{ n: number }>`SELECT count(*) AS n FROM messages`.execute(db);
      expect(Number(count.rows[0]?.n)).toBe(1);
    } finally {
      await close();
    }
  });
});
