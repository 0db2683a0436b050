import type { Db } from '../../db/database';

// The statements of two-step sign-in: the totp_factors row (one per person, pending until enabled) and the
// recovery codes (stored as keyed hashes). The secret column holds a sealed value (secret-box.ts), never the secret.

export const findFactor = (db: Db, userId: number) =>
  db.selectFrom('totp_factors').selectAll().where('user_id', '=', userId).executeTakeFirst();

/** Stores a new pending secret, replacing a pending one; an enabled factor is left alone (false). */
export async function putPendingFactor(
  db: Db,
  f: { user_id: number; secret: string; created_at: string },
): Promise<boolean> {
  const fresh = { secret: f.secret, created_at: f.created_at, enabled_at: null, last_step: null };
  const row = await db
    .insertInto('totp_factors')
    .values({ ...f, attempts: 0 })
    .onConflict((oc) =>
      oc
        .column('user_id')
        .doUpdateSet({ ...fresh, attempts: 0, locked_until: null })
        .where('totp_factors.enabled_at', 'is', null),
    )
    .returning('user_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Turns the pending factor on, only if its secret is still the one that was checked (not replaced since). */
export async function enableFactor(
  db: Db,
  userId: number,
  secret: string,
  at: string,
  lastStep: number,
): Promise<boolean> {
  const result = await db
    .updateTable('totp_factors')
    .set({ enabled_at: at, last_step: lastStep, attempts: 0, locked_until: null })
    .where('user_id', '=', userId)
    .where('secret', '=', secret)
    .where('enabled_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteFactor(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db.deleteFrom('totp_factors').where('user_id', '=', userId).execute();
}

/**
 * Takes one try, atomically, before the code is compared (so parallel guesses cannot pass the limit): the tries
 * taken now, or undefined when none is left.
 */
export async function takeAttempt(db: Db, userId: number, max: number): Promise<number | undefined> {
  const row = await db
    .updateTable('totp_factors')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('user_id', '=', userId)
    .where('attempts', '<', max)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** A right code: the wrong ones before it are forgiven. */
export async function clearAttempts(db: Db, userId: number): Promise<void> {
  await db
    .updateTable('totp_factors')
    .set({ attempts: 0, locked_until: null })
    .where('user_id', '=', userId)
    .execute();
}

/** Starts the lock once (a lock under way keeps its end). */
export async function lockFactor(db: Db, userId: number, until: string): Promise<void> {
  await db
    .updateTable('totp_factors')
    .set({ locked_until: until })
    .where('user_id', '=', userId)
    .where('locked_until', 'is', null)
    .execute();
}

/** Ends a lock whose time is over: the tries start again. */
export async function unlockIfOver(db: Db, userId: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('totp_factors')
    .set({ attempts: 0, locked_until: null })
    .where('user_id', '=', userId)
    .where('locked_until', '<=', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Accepts a code's time step once: false when it (or a later one) was accepted already (a replayed code). */
export async function acceptStep(db: Db, userId: number, step: number): Promise<boolean> {
  const result = await db
    .updateTable('totp_factors')
    .set({ last_step: step })
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function replaceRecoveryCodes(
  db: Db,
  userId: number,
  hashes: string[],
  at: string,
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: at })))
    .execute();
}

/** Uses a recovery code up, atomically: false when there is no such unused code. */
export async function useRecoveryCode(db: Db, userId: number, hash: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The named key, stored first with `fresh` if there is none yet; every process reads back the same value. */
export async function ensureKey(db: Db, name: string, fresh: string): Promise<string> {
  await db
    .insertInto('account_keys')
    .values({ name, value: fresh })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('account_keys')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
