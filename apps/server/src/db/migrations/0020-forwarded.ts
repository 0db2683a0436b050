import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database';

// Forwarded messages: a copy sent to another chat says it was forwarded and nothing of where it came from. Its
// files are new rows naming the same stored objects (attachments removes an object only once no row names it).
export const forwardedMigration = (_dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('messages')
      .addColumn('forwarded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('messages').dropColumn('forwarded').execute();
  },
});
