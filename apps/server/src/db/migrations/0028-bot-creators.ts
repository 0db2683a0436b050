import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

// Who may create bots, a site setting (admin): any verified person ('everyone', as before) or site admins only.
export const botCreatorsMigration = (_dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('site_settings')
      .addColumn('bot_creators', 'text', (c) => c.notNull().defaultTo('everyone'))
      .execute();
  },
});
