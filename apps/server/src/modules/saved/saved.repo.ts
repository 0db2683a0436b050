import type { Db } from '../../db/database';

// The saved_messages table's statements. A page joins the messages and the person's memberships (read only, in
// the one statement) so that what the person can no longer read is left out before the page is cut: a message
// deleted for everyone, one of a chat they left, one they cleared.

/** Saves a message for a person; saving it again keeps the first time. */
export const save = (db: Db, row: { user_id: number; message_id: number; saved_at: string }) =>
  db
    .insertInto('saved_messages')
    .values(row)
    .onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing())
    .execute();

export const unsave = (db: Db, userId: number, messageId: number) =>
  db.deleteFrom('saved_messages').where('user_id', '=', userId).where('message_id', '=', messageId).execute();

/** The saved messages a person can still read, newest saved first: the newest, or from before the saved row `before`. */
export const readablePage = (db: Db, userId: number, before: number | null, limit: number) =>
  db
    .selectFrom('saved_messages as s')
    .innerJoin('messages as m', 'm.id', 's.message_id')
    .innerJoin('chat_members as cm', (j) =>
      j.onRef('cm.chat_id', '=', 'm.chat_id').onRef('cm.user_id', '=', 's.user_id'),
    )
    .select(['s.id', 's.message_id', 's.saved_at', 'm.chat_id'])
    .where('s.user_id', '=', userId)
    .$if(before !== null, (q) => q.where('s.id', '<', before as number))
    .where('m.deleted_at', 'is', null)
    .whereRef('m.id', '>', 'cm.cleared_before_id')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .execute();

/** Which messages of one chat (row id) past `clearedBefore` a person saved, not deleted since. */
export async function savedIn(db: Db, userId: number, chatDbId: number, clearedBefore: number) {
  const rows = await db
    .selectFrom('saved_messages as s')
    .innerJoin('messages as m', 'm.id', 's.message_id')
    .select('s.message_id')
    .where('s.user_id', '=', userId)
    .where('m.chat_id', '=', chatDbId)
    .where('m.id', '>', clearedBefore)
    .where('m.deleted_at', 'is', null)
    .orderBy('s.id', 'desc')
    .execute();
  return rows.map((r) => r.message_id);
}
