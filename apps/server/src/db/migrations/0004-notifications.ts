import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

export const notificationsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    // One row per browser. It belongs to the session that registered it, so signing out (or a password
    // reset, or deleting the account) stops pushes to that browser without the browser's help.
    await idColumn(db.schema.createTable('push_subscriptions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('session_id', 'integer', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
      .addColumn('endpoint', 'text', (c) => c.notNull().unique())
      .addColumn('p256dh', 'text', (c) => c.notNull())
      .addColumn('auth', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('push_subscriptions_user')
      .on('push_subscriptions')
      .column('user_id')
      .execute();
    await db.schema
      .createIndex('push_subscriptions_session')
      .on('push_subscriptions')
      .column('session_id')
      .execute();

    // At most one pending missed-message mail per person; any process may send it once it is due.
    await db.schema
      .createTable('email_digests')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('due_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('email_digests_due').on('email_digests').column('due_at').execute();
  },
});
