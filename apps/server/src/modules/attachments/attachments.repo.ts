import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';
import type { FilesTable } from './attachments.tables';

// The only place the attachments module's SQL lives: files, and server_secrets (the file URL key).
export type FileRow = Selectable<FilesTable>;
/** The columns a file's view (ChatFile) is made from. */
export const VIEW_COLUMNS = [
  'id',
  'type',
  'name',
  'size',
  'thumb_key',
  'kind',
  'duration_ms',
  'waveform',
  'played_at',
] as const;
export type ViewColumn = (typeof VIEW_COLUMNS)[number];
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

/**
 * The files of a chat's messages from `first` to `last` (a history page's stretch), in upload order: prepared
 * once, and reached through the page's own messages (read-only), so it reads no other chat's files.
 */
export const filesInRange = prepared((db, p: { chat: number; first: number; last: number }) =>
  db
    .selectFrom('messages')
    .innerJoin('files', 'files.message_id', 'messages.id')
    .select([...VIEW_COLUMNS.map((c) => `files.${c}` as const), 'files.message_id'])
    .where('messages.chat_id', '=', p.chat)
    .where('messages.id', '>=', p.first)
    .where('messages.id', '<=', p.last)
    .orderBy('files.id'),
);

/** A message's voice messages: their ids and whether they were played. */
export const voiceFilesOf = (db: Executor, messageId: number) =>
  db
    .selectFrom('files')
    .select(['id', 'played_at'])
    .where('message_id', '=', messageId)
    .where('kind', '=', 'voice')
    .execute();

/** Marks these files played unless they were; the ids this call marked (none when another was first). */
export const markPlayed = (db: Executor, ids: number[], at: string) =>
  db
    .updateTable('files')
    .set({ played_at: at })
    .where('id', 'in', ids)
    .where('played_at', 'is', null)
    .returning('id')
    .execute();

export const keysOfChat = (db: Executor, chatDbId: number) =>
  db.selectFrom('files').select(['storage_key', 'thumb_key']).where('chat_id', '=', chatDbId).execute();

/**
 * What a forwarded copy's file row takes from the original's as it is: a voice message stays one (its kind,
 * duration and waveform); whether it was played is the original's and stays behind.
 */
const COPIED_FILE_COLUMNS = [
  'type',
  'mime',
  'name',
  'size',
  'storage_key',
  'thumb_key',
  'created_at',
  'kind',
  'duration_ms',
  'waveform',
] as const;

/**
 * New rows for a forwarded copy's files: the same stored objects (storage and thumbnail keys) under the copy's
 * chat and message, uploaded by whoever forwarded it.
 */
export async function copyFilesOfMessage(
  db: Executor,
  fromMessageId: number,
  to: { chatDbId: number; messageId: number; by: number },
): Promise<void> {
  await db
    .insertInto('files')
    .columns(['chat_id', 'uploader_id', 'message_id', ...COPIED_FILE_COLUMNS])
    .expression((eb) =>
      eb
        .selectFrom('files')
        .select((s) => [
          s.val(to.chatDbId).as('chat_id'),
          s.val(to.by).as('uploader_id'),
          s.val(to.messageId).as('message_id'),
          ...COPIED_FILE_COLUMNS,
        ])
        .where('message_id', '=', fromMessageId)
        .orderBy('id'),
    )
    .execute();
}

/**
 * Of these storage keys, those some file row still names (a forwarded copy's, say): their objects stay. Rows
 * of `exceptUploader` do not count: they are about to go with their account.
 */
export async function keysInUse(db: Executor, keys: string[], exceptUploader?: number): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('files')
    .select(['storage_key', 'thumb_key'])
    .where((eb) => eb.or([eb('storage_key', 'in', keys), eb('thumb_key', 'in', keys)]))
    .$if(exceptUploader !== undefined, (q) => q.where('uploader_id', '!=', exceptUploader as number))
    .execute();
  return new Set(rows.flatMap((r) => [r.storage_key, ...(r.thumb_key ? [r.thumb_key] : [])]));
}

/** Deletes a message's file rows and returns their storage keys (the files are removed after the commit). */
export const deleteFilesOfMessage = (db: Executor, messageId: number) =>
  db
    .deleteFrom('files')
    .where('message_id', '=', messageId)
    .returning(['storage_key', 'thumb_key'])
    .execute();

export const keysOfUploader = (db: Executor, userId: number) =>
  db.selectFrom('files').select(['storage_key', 'thumb_key']).where('uploader_id', '=', userId).execute();

/** Every file this person uploaded, oldest first (their data export). */
export const filesOfUploader = (db: Executor, userId: number) =>
  db
    .selectFrom('files')
    .select(['id', 'name', 'size', 'mime', 'storage_key', 'message_id', 'created_at'])
    .where('uploader_id', '=', userId)
    .orderBy('id')
    .execute();

/** The named secret, stored first with `fresh` if there is none yet; every process reads back the same value. */
export async function ensureSecret(db: Db, name: string, fresh: string): Promise<string> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: fresh })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
