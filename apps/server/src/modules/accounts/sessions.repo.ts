import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';

// The sessions table's statements. Only a token's SHA-256 hash is stored; expiry is ISO 8601 UTC text, so
// "expired" is a string comparison that reads the same in SQLite and PostgreSQL.

export async function insertSession(
  db: Db,
  s: {
    user_id: number;
    token_hash: string;
    remember: number;
    expires_at: string;
    created_at: string;
    user_agent?: string | null;
    ip?: string | null;
  },
): Promise<number> {
  const row = await db.insertInto('sessions').values(s).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Prepared: every request and socket that is not in the verified-session cache asks it. */
const sessionByHash = prepared((db, p: { hash: string }) =>
  db.selectFrom('sessions').selectAll().where('token_hash', '=', p.hash),
);

export const findSessionByHash = async (db: Db, tokenHash: string) =>
  (await sessionByHash(db, { hash: tokenHash }))[0];

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

/** A person's live sessions, newest first (the sessions list). */
export const liveSessionsOf = (db: Db, userId: number, now: string) =>
  db
    .selectFrom('sessions')
    .select(['id', 'user_agent', 'ip', 'created_at', 'last_active_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();

/** Records that a session was used at `at`, unless a write since `notBefore` already did (one per interval). */
export async function touchSession(db: Db, id: number, at: string, notBefore: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ last_active_at: at })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_active_at', 'is', null), eb('last_active_at', '<', notBefore)]))
    .execute();
}

/** Deletes one session of this person; false when they have none with that id. */
export async function deleteSessionOf(db: Db, userId: number, id: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Deletes every session of this person but one; the ids that went. */
export async function deleteOtherSessions(db: Db, userId: number, keepId: number): Promise<number[]> {
  const rows = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', keepId)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}
