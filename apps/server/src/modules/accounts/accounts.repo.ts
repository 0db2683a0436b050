import { type Insertable, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';

// The only place the accounts module's SQL lives: users, sessions and emailed codes.
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type CodePurpose = 'signup' | 'reset' | 'email_change';

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst() as Promise<UserRow | undefined>;

export const findUserByEmail = (db: Db, email: string) =>
  db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst() as Promise<
    UserRow | undefined
  >;

export const findUserByUsername = (db: Db, username: string) =>
  db
    .selectFrom('users')
    .selectAll()
    .where(sql`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst() as Promise<UserRow | undefined>;

export async function insertUser(db: Db, user: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateUser(db: Db, id: number, changes: Partial<NewUser>): Promise<void> {
  await db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute();
}

export async function insertSession(
  db: Db,
  s: { user_id: number; token_hash: string; remember: number; expires_at: string; created_at: string },
): Promise<number> {
  const row = await db.insertInto('sessions').values(s).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const findSessionByHash = (db: Db, tokenHash: string) =>
  db.selectFrom('sessions').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

export async function deleteSession(db: Db, id: number): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', id).execute();
}

export async function deleteSessionsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db.deleteFrom('sessions').where('user_id', '=', userId).returning('id').execute();
  return rows.map((r) => r.id);
}

export async function deleteExpiredSessions(db: Db, now: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
}

/** Stores a code, replacing any earlier one of the same purpose for the user (one statement). */
export async function upsertCode(
  db: Db,
  c: {
    user_id: number;
    purpose: CodePurpose;
    code_hash: string;
    new_email: string | null;
    expires_at: string;
    created_at: string;
  },
): Promise<void> {
  await db
    .insertInto('codes')
    .values({ ...c, attempts: 0 })
    .onConflict((oc) => oc.columns(['user_id', 'purpose']).doUpdateSet({ ...c, attempts: 0 }))
    .execute();
}

export const findCode = (db: Db, userId: number, purpose: CodePurpose) =>
  db
    .selectFrom('codes')
    .selectAll()
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();

/** A stored code as read: a newer code replaces the row's hash, so it no longer matches. */
export interface CodeRef {
  id: number;
  code_hash: string;
}

/**
 * Takes one try of a code, atomically: the tries it has now, or undefined when it has none left (or was used or
 * replaced meanwhile). Taken before the guess is compared, so parallel guesses cannot pass the limit.
 */
export async function takeAttempt(db: Db, code: CodeRef, max: number): Promise<number | undefined> {
  const row = await db
    .updateTable('codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', code.id)
    .where('code_hash', '=', code.code_hash)
    .where('attempts', '<', max)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** Gives back the try a right guess took: only wrong guesses count against the code. */
export async function giveBackAttempt(db: Db, code: CodeRef): Promise<void> {
  await db
    .updateTable('codes')
    .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
    .where('id', '=', code.id)
    .where('code_hash', '=', code.code_hash)
    .where('attempts', '>', 0)
    .execute();
}

/** Deletes a code; false when it was already gone (used by a request that came first) or replaced. */
export async function deleteCode(db: Db, code: CodeRef): Promise<boolean> {
  const result = await db
    .deleteFrom('codes')
    .where('id', '=', code.id)
    .where('code_hash', '=', code.code_hash)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
