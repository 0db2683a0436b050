import type { Db } from '../../db/database';

// The sessions table's statements. Only a token's SHA-256 hash is stored; expiry is ISO 8601 UTC text, so
// "expired" is a string comparison that reads the same in SQLite and PostgreSQL.

export async function insertSession(
  db: Db,
  s: { user_id: number; token_hash: string; remember: number; expires_at: string; created_at: string },
): Promise<number> {
  const row = await db.insertInto('sessions').values(s).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const findSessionByHash = (db: Db, tokenHash: string) =>
  db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

export async function expiryOf(db: Db, sessionId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select(['expires_at'])
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return row?.expires_at;
}

/** Of these session ids, those that have not expired at `now`. */
export async function liveIds(db: Db, sessionIds: number[], now: string): Promise<number[]> {
  const rows = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', 'in', sessionIds)
    .where('expires_at', '>', now)
    .execute();
  return rows.map((r) => r.id);
}

export async function deleteSession(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

/** Removes the sessions expired at `now` (their tickets and push subscriptions go with them); how many. */
export async function deleteExpiredSessions(db: Db, now: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
