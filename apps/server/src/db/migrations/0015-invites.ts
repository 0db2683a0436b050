import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Group invite links: a code that lets whoever holds it join the group, until it expires, is used up or revoked.
// The code is shown again in the group's list of links, so it is stored as it is (128 random bits).
export const invitesMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('chat_invites'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('max_uses', 'integer')
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('revoked_at', 'text')
      .execute();
    await db.schema.createIndex('chat_invites_chat').on('chat_invites').columns(['chat_id', 'id']).execute();
  },
});
