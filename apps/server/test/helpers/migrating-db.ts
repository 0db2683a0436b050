import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createDb } from '../../src/db/database';
import { migrateToLatest } from '../../src/db/migrate';
import { acquireSchema, isPostgresUrl, migrationLock, releaseSchema } from './pg-schema';

/**
 * A database of a migration test's own: a SQLite file, or a PostgreSQL schema when DATABASE_URL names one,
 * migrated as far as the test asks (rows written before a migration, then the migration), then destroyed.
 */
export async function openMigratingDb(prefix: string) {
  const pgUrl = isPostgresUrl(process.env.DATABASE_URL) ? process.env.DATABASE_URL : null;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  const schema = pgUrl ? await acquireSchema(pgUrl) : null;
  const { db, dialect } = createDb(
    loadConfig({ DATA_DIR: dir, ...(pgUrl ? { DATABASE_URL: pgUrl } : {}) }, { databaseSchema: schema }),
  );
  return {
    db,
    dialect,
    /** Up to `upTo` (every migration without it); on PostgreSQL after other test files' schema drops (pg-schema.ts). */
    migrate(upTo?: Parameters<typeof migrateToLatest>[3]): Promise<void> {
      const run = () => migrateToLatest(db, dialect, schema, upTo);
      return pgUrl ? migrationLock(pgUrl, run) : run();
    },
    async close(): Promise<void> {
      await db.destroy();
      if (pgUrl && schema) await releaseSchema(pgUrl, schema, false);
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Ada, a member of the group chat 'c1' ('Old'): the rows a migration test writes its messages for. */
export async function seedMemberOfChat(db: Awaited<ReturnType<typeof openMigratingDb>>['db'], now: string) {
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
  return { userId: user.id, chatId: chat.id };
}
