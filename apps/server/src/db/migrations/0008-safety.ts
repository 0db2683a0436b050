import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Safety for people: blocks (the safety module's), reports (the reports module's) and a member's mute
// of a chat (chat_members.muted_until, the chats module's).
export const safetyMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('blocks'), dialect)
      .addColumn('blocker_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('blocked_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('blocks_pair', ['blocker_id', 'blocked_id'])
      .execute();
    // The other direction: who blocked this person (every check asks both ways).
    await db.schema.createIndex('blocks_blocked').on('blocks').column('blocked_id').execute();

    await idColumn(db.schema.createTable('reports'), dialect)
      // The people stay named only while their accounts exist; the report stays for the record.
      .addColumn('reporter_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('target_user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('message_id', 'integer', (c) => c.references('messages.id').onDelete('set null'))
      // The chat's public id and the text as it read when reported: kept if the message is edited or goes.
      .addColumn('chat_id', 'text')
      .addColumn('message_body', 'text')
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('note', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('resolved_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('resolution_action', 'text')
      .addColumn('resolution_note', 'text')
      .execute();
    await db.schema.createIndex('reports_status').on('reports').columns(['status', 'id']).execute();
    await db.schema.createIndex('reports_reporter').on('reports').columns(['reporter_id', 'id']).execute();

    // Until when the member muted the chat (ISO 8601; far in the future for "always"); NULL when not muted.
    await db.schema.alterTable('chat_members').addColumn('muted_until', 'text').execute();
  },
});
