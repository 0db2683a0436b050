import { statementRuns } from '../../db/prepared';
import type { Executor, StoredMessage, ThreadColumns } from './messages.repo';

// The group commit's SQL (message-writer.ts): new messages in multi-row INSERTs, and the look-up of a resend.

export const messageByClientId = (db: Executor, chatDbId: number, senderId: number, clientId: string) =>
  db
    .selectFrom('messages')
    .select(['id', 'chat_id'])
    .where('chat_id', '=', chatDbId)
    .where('sender_id', '=', senderId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();

/** A new message's columns; a thread reply also names its root, and one sent only there is out of the timeline. */
export type NewMessageRow = Omit<
  StoredMessage,
  | 'id'
  | 'edited_at'
  | 'deleted_at'
  | 'reaction_count'
  | 'forwarded'
  | 'link_preview'
  | 'has_poll'
  | 'app_name'
  | ThreadColumns
> &
  Partial<Pick<StoredMessage, 'thread_root_id' | 'in_timeline' | 'forwarded' | 'has_poll' | 'app_name'>> & {
    no_preview?: number;
  };

/** Rows per INSERT at most: the batch is cut into runs of powers of two up to this (powerOfTwoRuns). */
const INSERT_RUN = 256;

/**
 * Inserts many messages in a few multi-row statements, in order: on SQLite runs of 256, 128 … 1 rows, so that it
 * keeps nine statement texts prepared instead of one per batch size (each of hundreds of rows is large); on
 * PostgreSQL, where a statement is a round trip, in one. A row whose
 * (sender, chat, client_id) is already stored is skipped: the answer holds only the inserted rows, in id order,
 * which is the order given.
 */
export async function insertMessages(db: Executor, rows: NewMessageRow[]) {
  const inserted = [];
  for (const run of statementRuns(db, rows, INSERT_RUN)) {
    inserted.push(
      ...(await db
        .insertInto('messages')
        .values(run)
        .onConflict((oc) => oc.columns(['client_id', 'sender_id', 'chat_id']).doNothing())
        .returning(['id', 'chat_id', 'sender_id', 'client_id'])
        .execute()),
    );
  }
  return inserted.sort((a, b) => a.id - b.id);
}
