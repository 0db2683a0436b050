import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';
import { idColumn } from './columns';

// For operators: the audit log, site admins and deactivation on users, server settings, invite links.
export const adminMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    // Kept when the people it names are deleted: no foreign keys, ids and a detail of what mattered then.
    await idColumn(db.schema.createTable('audit_events'), dialect)
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('actor_id', 'integer')
      .addColumn('target_id', 'integer')
      .addColumn('detail', 'text', (c) => c.notNull().defaultTo('{}'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('audit_events_type').on('audit_events').columns(['type', 'id']).execute();
    await db.schema
      .createIndex('audit_events_actor')
      .on('audit_events')
      .columns(['actor_id', 'id'])
      .execute();
    await db.schema
      .createIndex('audit_events_target')
      .on('audit_events')
      .columns(['target_id', 'id'])
      .execute();

    await db.schema
      .alterTable('users')
      .addColumn('is_site_admin', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('users').addColumn('deactivated_at', 'text').execute();

    // One row (id 1): who may sign up. `signups`: open | closed | domains (only addresses at `domains`).
    await db.schema
      .createTable('site_settings')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('signups', 'text', (c) => c.notNull().defaultTo('open'))
      .addColumn('domains', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('updated_at', 'text')
      .execute();
    await db.insertInto('site_settings').values({ id: 1, signups: 'open', domains: '[]' }).execute();

    // A link that lets a person sign up while sign-ups are closed or restricted.
    await idColumn(db.schema.createTable('invite_links'), dialect)
      .addColumn('token', 'text', (c) => c.notNull().unique())
      .addColumn('created_by', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('max_uses', 'integer')
      .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('revoked_at', 'text')
      .execute();
  },
});
