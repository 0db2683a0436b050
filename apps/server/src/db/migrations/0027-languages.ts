import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

// A person's language (accounts): `language` as chosen in Settings (null: the browser's), and `signup_language`,
// the language of the browser that signed them up, which their mail follows until they choose one.
export const languagesMigration = (_dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('language', 'text').execute();
    await db.schema.alterTable('users').addColumn('signup_language', 'text').execute();
  },
});
