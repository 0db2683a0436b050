import { sql, type Updateable } from 'kysely';
import type { Db } from '../../db/database';
import type { UsersTable } from '../../db/schema';

// The only place the profiles module's SQL lives: the profile columns of the users table.
// Queries name their columns so that private ones (email, password hash) never leave the database here.

/** Usernames compare the way the unique index lower(username) compares them, on either database. */
const sameUsername = (username: string) => sql<boolean>`lower(username) = lower(${username})`;

export async function listVisibleProfiles(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'username', 'displayname', 'avatar', 'is_blue_verified', 'online_status'])
    .where('is_activated', '=', 1)
    .where('hide_profile', '=', 0)
    .orderBy('id')
    .execute();
}

export async function countActivatedUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_activated', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const findPublicByUsername = (db: Db, username: string) =>
  db
    .selectFrom('users')
    .select([
      'id',
      'username',
      'first_name',
      'last_name',
      'displayname',
      'avatar',
      'bio',
      'location',
      'date_joined',
      'last_seen',
      'is_blue_verified',
      'hide_profile',
      'online_status',
    ])
    .where(sameUsername(username))
    .where('is_activated', '=', 1)
    .executeTakeFirst();
export type PublicProfileRow = NonNullable<Awaited<ReturnType<typeof findPublicByUsername>>>;

export const findEditableProfile = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['id', 'username', 'first_name', 'last_name', 'bio', 'avatar'])
    .where('id', '=', userId)
    .executeTakeFirst();

export async function usernameTakenByOther(db: Db, username: string, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sameUsername(username))
    .where('id', '!=', userId)
    .executeTakeFirst();
  return !!row;
}

export type ProfileChanges = Pick<
  Updateable<UsersTable>,
  'first_name' | 'last_name' | 'displayname' | 'username' | 'bio' | 'avatar'
>;

/**
 * Applies the changes only if the avatar is still `expectedAvatar` (compare-and-set), so two concurrent
 * uploads cannot both believe they replaced the same old file. False when the row moved on or is gone.
 */
export async function updateProfileIfAvatar(
  db: Db,
  userId: number,
  expectedAvatar: string | null,
  changes: ProfileChanges,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set(changes)
    .where('id', '=', userId)
    .where((eb) => (expectedAvatar === null ? eb('avatar', 'is', null) : eb('avatar', '=', expectedAvatar)))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function findAvatarOf(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('avatar').where('id', '=', userId).executeTakeFirst();
  return row?.avatar ?? null;
}
