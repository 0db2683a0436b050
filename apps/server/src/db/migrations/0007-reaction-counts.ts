import { type Kysely, type Migration, sql } from 'kysely';

// How many reactions a message carries, kept beside it (in the reaction's own transaction), so a history page
// reads message_reactions only for the messages that have any: most pages then need no reactions statement.
export const reactionCountsMigration = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('messages')
      .addColumn('reaction_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE messages SET reaction_count =
        (SELECT count(*) FROM message_reactions r WHERE r.message_id = messages.id)
      WHERE id IN (SELECT message_id FROM message_reactions)`.execute(db);
  },
});
