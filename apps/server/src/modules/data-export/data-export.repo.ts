import type { Db } from '../../db/database';
import type { DataExportsTable } from './data-export.tables';

// The data_exports table's statements.

export async function insertExport(
  db: Db,
  e: { public_id: string; user_id: number; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('data_exports')
    .values({ ...e, status: 'preparing' })
    .execute();
}

export async function finishExport(
  db: Db,
  publicId: string,
  done: { status: DataExportsTable['status']; storage_key: string | null; size: number | null },
): Promise<void> {
  await db.updateTable('data_exports').set(done).where('public_id', '=', publicId).execute();
}

/** One of this person's exports (someone else's is as good as none). */
export const findExportOf = (db: Db, userId: number, publicId: string) =>
  db
    .selectFrom('data_exports')
    .selectAll()
    .where('public_id', '=', publicId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

/** This person's exports not yet expired, newest first. */
export const liveExportsOf = (db: Db, userId: number, now: string) =>
  db
    .selectFrom('data_exports')
    .selectAll()
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();

/** Deletes the rows expired at `now`; their storage keys, for the files to go after. */
export async function deleteExpired(db: Db, now: string): Promise<(string | null)[]> {
  const rows = await db
    .deleteFrom('data_exports')
    .where('expires_at', '<=', now)
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}

export const storageKeysOf = async (db: Db, userId: number): Promise<(string | null)[]> =>
  (await db.selectFrom('data_exports').select('storage_key').where('user_id', '=', userId).execute()).map(
    (r) => r.storage_key,
  );
