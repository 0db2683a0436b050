import type { Db } from '../../db/database';
import type { CodesTable } from './accounts.tables';

// The codes table's statements: emailed codes, stored hashed, one per user and purpose.
export type CodePurpose = CodesTable['purpose'];

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
