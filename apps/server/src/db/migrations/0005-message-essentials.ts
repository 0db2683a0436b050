import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Conversation essentials: edits with their earlier versions, deletion for everyone, replies,
// reactions and mentions.
export const messageEssentialsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('messages').addColumn('edited_at', 'text').execute();
    await db.schema.alterTable('messages').addColumn('deleted_at', 'text').execute();
    await db.schema
      .alterTable('messages')
      .addColumn('reply_to_id', 'integer', (c) => c.references('messages.id').onDelete('set null'))
      .execute();
    // The user ids a body mentions, as a JSON array: read with every message, never queried by.
    await db.schema
      .alterTable('messages')
      .addColumn('mentions', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();

    // Earlier versions of edited messages; `edited_at` is when that version was replaced.
    await idColumn(db.schema.createTable('message_edits'), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('edited_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('message_edits_message').on('message_edits').column('message_id').execute();

    await idColumn(db.schema.createTable('message_reactions'), dialect)
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('emoji', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('message_reactions_unique')
      .on('message_reactions')
      .columns(['message_id', 'user_id', 'emoji'])
      .unique()
      .execute();
  },
});
