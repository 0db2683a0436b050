import type { Kysely, Migration } from 'kysely';

// The replies of a message, found by an index: deleting a message (or an account, whose messages go with it)
// sets reply_to_id to NULL in every reply to it, and without an index each deleted message was a scan of the
// whole messages table, on SQLite and on PostgreSQL alike. Partial, so a message that answers nothing (most)
// adds nothing to it.
export const replyIndexMigration = (): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('messages_reply_to')
      .ifNotExists()
      .on('messages')
      .column('reply_to_id')
      .where('reply_to_id', 'is not', null)
      .execute();
  },
});
