import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// For people: where each session signed in from and when it was last used (the sessions list), the
// two-step sign-in factor with its recovery codes (accounts'), and the prepared data exports (data-export's).
export const accountSecurityMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('ip', 'text').execute();
    await db.schema.alterTable('sessions').addColumn('last_active_at', 'text').execute();

    await db.schema
      .createTable('totp_factors')
      .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled_at', 'text')
      .addColumn('last_step', 'integer')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();

    // The key that seals the secrets above, made once at start (secret-box.ts).
    await db.schema
      .createTable('account_keys')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .execute();

    await idColumn(db.schema.createTable('recovery_codes'), dialect)
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('recovery_codes_user_hash', ['user_id', 'code_hash'])
      .execute();

    await idColumn(db.schema.createTable('data_exports'), dialect)
      .addColumn('public_id', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('storage_key', 'text')
      .addColumn('size', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('data_exports_user').on('data_exports').column('user_id').execute();
    await db.schema.createIndex('data_exports_expiry').on('data_exports').column('expires_at').execute();
  },
});
