import { type Kysely, type Migration, sql } from 'kysely';
import type { DialectName } from '../database';

// A group's member count, kept on its row by the database itself: a trigger on chat_members adds one for each
// row inserted and takes one away for each row deleted, whatever deletes it (a leave, a removal, a cascade from
// a deleted chat). A deleted account's row stays (its user_id set to null) and counts, as the chat list counts it.
// The directory then sorts public groups by an index instead of counting every channel's members per request.
export const memberCountsMigration = (dialect: DialectName): Migration => ({
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('chats')
      .addColumn('member_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`UPDATE chats SET member_count = (SELECT count(*) FROM chat_members WHERE chat_members.chat_id = chats.id)`.execute(
      db,
    );
    if (dialect === 'postgres') {
      await sql`CREATE FUNCTION chat_members_count() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF TG_OP = 'INSERT' THEN
            UPDATE chats SET member_count = member_count + 1 WHERE id = NEW.chat_id;
          ELSE
            UPDATE chats SET member_count = member_count - 1 WHERE id = OLD.chat_id;
          END IF;
          RETURN NULL;
        END $$`.execute(db);
      await sql`CREATE TRIGGER chat_members_count AFTER INSERT OR DELETE ON chat_members
        FOR EACH ROW EXECUTE FUNCTION chat_members_count()`.execute(db);
    } else {
      await sql`CREATE TRIGGER chat_members_count_insert AFTER INSERT ON chat_members BEGIN
        UPDATE chats SET member_count = member_count + 1 WHERE id = NEW.chat_id;
      END`.execute(db);
      await sql`CREATE TRIGGER chat_members_count_delete AFTER DELETE ON chat_members BEGIN
        UPDATE chats SET member_count = member_count - 1 WHERE id = OLD.chat_id;
      END`.execute(db);
    }
    await db.schema
      .createIndex('chats_directory')
      .on('chats')
      .columns(['visibility', 'member_count', 'id'])
      .execute();
  },
});
