import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database, FilesTable } from '../../db/schema';

// The only place the attachments module's SQL lives.
export type FileRow = Selectable<FilesTable>;
type Executor = Db | Transaction<Database>;

export async function insertFile(db: Executor, file: Insertable<FilesTable>): Promise<number> {
  const row = await db.insertInto('files').values(file).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const findFile = (db: Executor, id: number) =>
  db.selectFrom('files').selectAll().where('id', '=', id).executeTakeFirst();

/** Unsent files of this uploader in this chat among `ids`. */
export const claimable = (db: Executor, chatDbId: number, uploaderId: number, ids: number[]) =>
  db
    .selectFrom('files')
    .selectAll()
    .where('id', 'in', ids)
    .where('chat_id', '=', chatDbId)
    .where('uploader_id', '=', uploaderId)
    .where('message_id', 'is', null)
    .execute();

export async function attachToMessage(db: Executor, ids: number[], messageId: number): Promise<void> {
  await db.updateTable('files').set({ message_id: messageId }).where('id', 'in', ids).execute();
}

export const filesOfMessages = (db: Executor, messageIds: number[]) =>
  messageIds.length === 0
    ? Promise.resolve([] as FileRow[])
    : db.selectFrom('files').selectAll().where('message_id', 'in', messageIds).orderBy('id').execute();

export const keysOfChat = (db: Executor, chatDbId: number) =>
  db.selectFrom('files').select(['storage_key', 'thumb_key']).where('chat_id', '=', chatDbId).execute();

export const keysOfUploader = (db: Executor, userId: number) =>
  db.selectFrom('files').select(['storage_key', 'thumb_key']).where('uploader_id', '=', userId).execute();

export const isMember = (db: Executor, chatDbId: number, userId: number) =>
  db
    .selectFrom('chat_members')
    .select('id')
    .where('chat_id', '=', chatDbId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
