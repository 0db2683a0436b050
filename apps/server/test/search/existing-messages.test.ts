import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { searchMessages } from '../../src/modules/search/search.repo';
import { parseSearch, toFts5, toTsquery } from '../../src/modules/search/search-query';
import { acquireSchema, migrationLock, releaseSchema } from '../helpers/pg-schema';

// Messages written before search existed are found after the search migration (issue 11): the migration
// indexes them (FTS5 'rebuild' on SQLite; the generated tsvector column computes them on PostgreSQL).
const pgUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : null;
/** On PostgreSQL, migrations wait for other test files' schema drops (see pg-schema.ts). */
const migrate = (fn: () => Promise<void>) => (pgUrl ? migrationLock(pgUrl, fn) : fn());

describe('the search migration', () => {
  it('indexes the messages already stored', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-search-migration-'));
    const schema = pgUrl ? await acquireSchema(pgUrl) : null;
    const { db, dialect } = createDb(
      loadConfig({ DATA_DIR: dir, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }, { databaseSchema: schema }),
    );
    try {
      await migrate(() => migrateToLatest(db, dialect, schema, '0005-message-essentials'));
      const now = new Date().toISOString();
      const user = await db
        .insertInto('users')
        .values({
          username: 'ada',
          email: 'ada@example.test',
          password_hash: 'x',
          first_name: 'Ada',
          last_name: 'L',
          displayname: 'ada',
          date_joined: now,
          is_activated: 1,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const chat = await db
        .insertInto('chats')
        .values({
          chat_id: 'c1',
          is_private: 0,
          private_key: null,
          name: 'Old',
          created_at: now,
          last_activity_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('chat_members')
        .values({ chat_id: chat.id, user_id: user.id, role: 'admin', joined_at: now })
        .execute();
      await db
        .insertInto('messages')
        .values({
          chat_id: chat.id,
          sender_id: user.id,
          kind: 'user',
          client_id: null,
          body: 'Déploiement terminé',
          created_at: now,
        })
        .execute();

      await migrate(() => migrateToLatest(db, dialect, schema));
      const terms = parseSearch('deploiement');
      const hits = await searchMessages(db, dialect, {
        userId: user.id,
        match: dialect === 'sqlite' ? toFts5(terms) : toTsquery(terms),
        limit: 10,
      });
      expect(hits.map((h) => h.chat_id)).toEqual(['c1']);
      const count = await sql<{ n: number }>`SELECT count(*) AS n FROM messages`.execute(db);
      expect(Number(count.rows[0]?.n)).toBe(1);
    } finally {
      await db.destroy();
      if (pgUrl && schema) await releaseSchema(pgUrl, schema, false);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
