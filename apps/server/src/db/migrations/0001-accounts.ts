import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

export const accountsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await idColumn(db.schema.createTable('users'), dialect)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('displayname', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('location', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('phone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar', 'text')
      .addColumn('is_activated', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_blue_verified', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('hide_profile', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('online_status', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('read_receipt', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('push_notification', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('email_notification', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_seen', 'text')
      .addColumn('date_joined', 'text', (c) => c.notNull())
      .execute();
    // Usernames are unique whatever their case.
    await db.schema
      .createIndex('users_username_lower')
      .on('users')
      .unique()
      .expression(sql`lower(username)`)
      .execute();

    await idColumn(db.schema.createTable('sessions'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await idColumn(db.schema.createTable('codes'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('new_email', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('codes_user_purpose', ['user_id', 'purpose'])
      .execute();
  },
});
