import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Pinned messages (modules/pins). A message is pinned at most once (it belongs to one chat), and its pin goes
// with it: with its chat, with its sender's account, and with the account of whoever pinned it. A chat's pins are
// read newest first by (chat_id, id).
export const pinsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('pins'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('message_id', 'integer', (c) => c.notNull().references('messages.id').onDelete('cascade'))
      .addColumn('pinned_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('pinned_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('pins_message', ['message_id'])
      .execute();
    await db.schema.createIndex('pins_chat').on('pins').columns(['chat_id', 'id']).execute();
    // The cascade from a deleted account finds its pins by index.
    await db.schema.createIndex('pins_pinned_by').on('pins').column('pinned_by').execute();
  },
});
