import type { Db } from '../../db/database';

// The link_previews table's SQL: the day's cache of fetched pages, and its sweep.

/** The newest preview of an address fetched since `since`, if any. */
export const freshPreview = (db: Db, urlHash: string, since: string) =>
  db
    .selectFrom('link_previews')
    .select(['id', 'preview', 'fetched_at'])
    .where('url_hash', '=', urlHash)
    .where('fetched_at', '>=', since)
    .orderBy('fetched_at', 'desc')
    .limit(1)
    .executeTakeFirst();

export async function insertPreview(
  db: Db,
  row: { url_hash: string; fetched_at: string; preview: string | null; image_key: string | null },
): Promise<number> {
  const { id } = await db.insertInto('link_previews').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

/**
 * Previews fetched before `before` that no message names (messages.link_preview_id, read here and nowhere
 * else in this module): what the sweep may forget, with their pictures.
 */
export const unnamedBefore = (db: Db, before: string, limit: number) =>
  db
    .selectFrom('link_previews as p')
    .select(['p.id', 'p.image_key'])
    .where('p.fetched_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('messages').select('messages.id').whereRef('messages.link_preview_id', '=', 'p.id'),
        ),
      ),
    )
    .limit(limit)
    .execute();

export async function deletePreviews(db: Db, ids: number[]): Promise<void> {
  if (ids.length > 0) await db.deleteFrom('link_previews').where('id', 'in', ids).execute();
}
