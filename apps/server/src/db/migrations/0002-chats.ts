import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

export const chatsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('chats'), dialect)
      .addColumn('chat_id', 'text', (c) => c.notNull().unique())
      .addColumn('is_private', 'integer', (c) => c.notNull())
      // "lowId:highId" for a private chat, so two people share exactly one.
      .addColumn('private_key', 'text', (c) => c.unique())
      .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_activity_at', 'text', (c) => c.notNull())
      .execute();

    await idColumn(db.schema.createTable('chat_members'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      // NULL once the account is deleted: the member stays as 'deleted_user' for the others.
      .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('role', 'text', (c) => c.notNull().defaultTo('member'))
      .addColumn('joined_at', 'text', (c) => c.notNull())
      .addColumn('last_read_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_delivered_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('cleared_before_id', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('chat_members_chat_user', ['chat_id', 'user_id'])
      .execute();
    await db.schema.createIndex('chat_members_user').on('chat_members').column('user_id').execute();

    await idColumn(db.schema.createTable('messages'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      // A deleted account's messages go with it (DESIGN §1).
      .addColumn('sender_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('user'))
      .addColumn('client_id', 'text')
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('messages_sender_chat_client', ['sender_id', 'chat_id', 'client_id'])
      .execute();
    await db.schema.createIndex('messages_chat_id').on('messages').columns(['chat_id', 'id']).execute();

    // Short-lived single-use socket tickets (DESIGN §1), in the database so any process can redeem them.
    await db.schema
      .createTable('socket_tickets')
      .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
});
