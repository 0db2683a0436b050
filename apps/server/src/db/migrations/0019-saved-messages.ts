import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Saved messages (modules/saved): a person's bookmarks, once per message, paged newest first by
// (user_id, id). A row goes with its person's account and with its message (a deleted chat takes its messages).
export const savedMessagesMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('saved_messages'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('saved_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('saved_messages_user_message', ['user_id', 'message_id'])
      .execute();
    await db.schema
      .createIndex('saved_messages_user')
      .on('saved_messages')
      .columns(['user_id', 'id'])
      .execute();
    // A deleted chat's messages cascade here: each found by index rather than by a scan of every bookmark.
    await db.schema.createIndex('saved_messages_message').on('saved_messages').column('message_id').execute();
  },
});
