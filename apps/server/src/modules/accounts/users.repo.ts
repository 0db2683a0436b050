import { MAX_DB_ID } from '@parley/protocol';
import type { Db } from '../../db/database';

// The users table's statements for other modules' needs (cards, look-ups by name or id). Accounts owns the
// table: no other module's repo writes it or reads it alone (see docs/ARCHITECTURE.md).

/** What a message or a member list shows of a person. */
export interface UserCard {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
}

export const cards = (db: Db, userIds: number[]): Promise<UserCard[]> =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'username', 'first_name', 'last_name', 'displayname', 'avatar'])
        .where('id', 'in', userIds)
        .execute();

/** Activated users named by username (case-insensitive) or id; ids past an `integer` column name nobody. */
export async function findActivated(db: Db, targets: (string | number)[]) {
  const ids = targets.filter((t): t is number => typeof t === 'number' && t <= MAX_DB_ID);
  const names = targets.filter((t): t is string => typeof t === 'string').map((t) => t.toLowerCase());
  if (ids.length === 0 && names.length === 0) return [];
  return db
    .selectFrom('users')
    .select(['id', 'username', 'first_name', 'last_name', 'displayname'])
    .where('is_activated', '=', 1)
    .where((eb) =>
      eb.or([
        ...(ids.length ? [eb('id', 'in', ids)] : []),
        ...(names.length ? [eb(eb.fn('lower', [eb.ref('username')]), 'in', names)] : []),
      ]),
    )
    .execute();
}

export async function activatedByUsername(db: Db, username: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('is_activated', '=', 1)
    .where((eb) => eb(eb.fn('lower', [eb.ref('username')]), '=', username.toLowerCase()))
    .executeTakeFirst();
  return row?.id;
}

export async function activatedById(db: Db, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('is_activated', '=', 1)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.id;
}
