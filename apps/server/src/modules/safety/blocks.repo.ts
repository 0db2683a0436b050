import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

// The only place the blocks table's SQL lives. The blocked list joins users read-only for names (DESIGN §3).
type Executor = Db | Transaction<Database>;

/** Adds the block; an existing one is kept as it is (blocking twice changes nothing). */
export async function insertBlock(db: Executor, blockerId: number, blockedId: number, now: string) {
  await db
    .insertInto('blocks')
    .values({ blocker_id: blockerId, blocked_id: blockedId, created_at: now })
    .onConflict((oc) => oc.columns(['blocker_id', 'blocked_id']).doNothing())
    .execute();
}

export async function deleteBlock(db: Executor, blockerId: number, blockedId: number) {
  await db
    .deleteFrom('blocks')
    .where('blocker_id', '=', blockerId)
    .where('blocked_id', '=', blockedId)
    .execute();
}

/** Every block this person is part of, either way. */
export const blocksOf = (db: Executor, userId: number) =>
  db
    .selectFrom('blocks')
    .select(['blocker_id', 'blocked_id'])
    .where((eb) => eb.or([eb('blocker_id', '=', userId), eb('blocked_id', '=', userId)]))
    .execute();

/** The people this person blocked, by id. */
export const blockedIdsBy = (db: Executor, blockerId: number) =>
  db.selectFrom('blocks').select('blocked_id').where('blocker_id', '=', blockerId).execute();

/** Every block any of these people is part of, either way. */
export const blocksInvolving = (db: Executor, userIds: number[]) =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('blocks')
        .select(['blocker_id', 'blocked_id'])
        .where((eb) => eb.or([eb('blocker_id', 'in', userIds), eb('blocked_id', 'in', userIds)]))
        .execute();

/** The blocks among these people (both ends in the list). */
export const blocksAmong = (db: Executor, userIds: number[]) =>
  userIds.length < 2
    ? Promise.resolve([])
    : db
        .selectFrom('blocks')
        .select(['blocker_id', 'blocked_id'])
        .where('blocker_id', 'in', userIds)
        .where('blocked_id', 'in', userIds)
        .execute();

/** The people this person blocked, newest first, with what the list shows of them. */
export const blockedBy = (db: Executor, blockerId: number) =>
  db
    .selectFrom('blocks as b')
    .innerJoin('users as u', 'u.id', 'b.blocked_id')
    .select([
      'u.id',
      'u.username',
      'u.first_name',
      'u.last_name',
      'u.displayname',
      'u.avatar',
      'b.created_at as blocked_at',
    ])
    .where('b.blocker_id', '=', blockerId)
    .orderBy('b.id', 'desc')
    .execute();
