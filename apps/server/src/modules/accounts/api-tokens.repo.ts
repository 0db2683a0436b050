import type { Db } from '../../db/database';

// The api_tokens table's statements (accounts.tables.ts). Only a token's SHA-256 hash is stored; times are ISO
// 8601 UTC text, so "expired" is a string comparison in SQLite and PostgreSQL alike.

export interface ApiTokenRow {
  id: number;
  user_id: number;
  name: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
}

const COLUMNS = ['id', 'user_id', 'name', 'scopes', 'created_at', 'expires_at', 'last_used_at'] as const;

export async function insertToken(
  db: Db,
  t: Omit<ApiTokenRow, 'id' | 'last_used_at'> & { token_hash: string },
): Promise<ApiTokenRow> {
  return db.insertInto('api_tokens').values(t).returning(COLUMNS).executeTakeFirstOrThrow();
}

export const tokenByHash = (db: Db, hash: string): Promise<ApiTokenRow | undefined> =>
  db.selectFrom('api_tokens').select(COLUMNS).where('token_hash', '=', hash).executeTakeFirst();

/** A person's tokens still usable at `now`, newest first. */
export const liveTokensOf = (db: Db, userId: number, now: string): Promise<ApiTokenRow[]> =>
  db
    .selectFrom('api_tokens')
    .select(COLUMNS)
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .orderBy('id', 'desc')
    .execute();

/** Deletes one of a person's tokens; whether it was theirs. */
export async function deleteTokenOf(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Deletes every token of a user (a bot's, when its credentials are rotated); their ids. */
export async function deleteTokensOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.deleteFrom('api_tokens').where('user_id', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

/** Of these token ids, those still usable at `now`. */
export async function liveTokenIds(db: Db, ids: number[], now: string): Promise<number[]> {
  const rows = await db
    .selectFrom('api_tokens')
    .select('id')
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .execute();
  return rows.map((r) => r.id);
}

export async function touchToken(db: Db, id: number, now: string): Promise<void> {
  await db.updateTable('api_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
}

export async function deleteExpiredTokens(db: Db, now: string): Promise<void> {
  await db.deleteFrom('api_tokens').where('expires_at', '<=', now).execute();
}
