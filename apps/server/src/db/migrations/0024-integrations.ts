import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// Integrations. api_tokens (accounts): personal access tokens, only their hash kept. users.is_bot: a bot is a
// user; bots (bots module) says whose it is, where its events go and its sealed signing secret; bot_deliveries
// the last attempts to reach it. webhooks (webhooks module): a chat's incoming hooks, their secret hashed;
// messages.app_name: the hook a message came from (its sender is null, its kind 'user').
// socket_tickets loses its foreign key to sessions: a token's socket ticket names no session row.
export const integrationsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('api_tokens'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('last_used_at', 'text')
      .execute();
    await db.schema.createIndex('api_tokens_user').on('api_tokens').column('user_id').execute();

    await db.schema
      .alterTable('users')
      .addColumn('is_bot', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('bots')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('owner_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('events_url', 'text')
      .addColumn('signing_secret', 'text', (c) => c.notNull())
      .addColumn('open_to_all', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('bots_owner').on('bots').column('owner_id').execute();
    await idColumn(db.schema.createTable('bot_deliveries'), dialect)
      .addColumn('bot_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('message_id', 'integer')
      .addColumn('chat_id', 'text', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('error', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('bot_deliveries_bot')
      .on('bot_deliveries')
      .columns(['bot_id', 'id'])
      .execute();

    await idColumn(db.schema.createTable('webhooks'), dialect)
      .addColumn('chat_id', 'integer', (c) => c.notNull().references('chats.id').onDelete('cascade'))
      .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('webhooks_chat').on('webhooks').column('chat_id').execute();
    await db.schema.alterTable('messages').addColumn('app_name', 'text').execute();

    // Tickets live 30 s: the few in flight are lost with the old table, and their sockets ask again.
    await db.schema.dropTable('socket_tickets').execute();
    await db.schema
      .createTable('socket_tickets')
      .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'integer', (c) => c.notNull())
      .addColumn('scopes', 'text')
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
  },
});
