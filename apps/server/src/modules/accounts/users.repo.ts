import { MAX_DB_ID } from '@parley/protocol';
import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Db, DialectName } from '../../db/database';
import { inList } from '../../db/prepared';
import type { UsersTable } from './accounts.tables';

// Every statement that writes the users table or reads it alone (see docs/ARCHITECTURE.md, "One owner per
// table"): accounts' own, and those other modules reach through UsersService. Queries for other modules name
// their columns, so private ones (email, password hash) never leave the database for them.
export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;

/** Usernames compare the way the unique index lower(username) compares them, on either database. */
const sameUsername = (username: string) => sql<boolean>`lower(username) = lower(${username})`;

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

/**
 * Whether anyone but `userId` has verified their address or holds the site-admin role: then `userId` is not the
 * first verified account on the server.
 */
export async function anotherVerifiedOrAdmin(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '<>', userId)
    .where((eb) => eb.or([eb('is_activated', '=', 1), eb('is_site_admin', '=', 1)]))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

/** 'parf': the transaction lock two first verifications take turns on. */
const FIRST_ADMIN_LOCK = 0x70617266;

/**
 * Makes two transactions choosing the first site admin take turns (until the holder commits). PostgreSQL only:
 * on SQLite a transaction that has written holds the database's one write lock already.
 */
export async function lockFirstAdminChoice(db: Db, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FIRST_ADMIN_LOCK})`.execute(db);
}

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

// --- For chats and groups ---

/** What a message or a member list shows of a person. */
export interface UserCard {
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
  is_bot: number;
}

export const cards = (db: Db, userIds: number[]): Promise<UserCard[]> =>
  userIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('users')
        .select(['id', 'username', 'first_name', 'last_name', 'displayname', 'avatar', 'is_bot'])
        .where('id', 'in', inList(userIds))
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

// --- For profiles ---

/** Activated people who do not hide their profile, by id; only these ids when given (search results). */
export const listVisibleProfiles = (db: Db, ids?: number[]) => {
  let q = db
    .selectFrom('users')
    .select(['id', 'username', 'displayname', 'avatar', 'is_blue_verified', 'online_status', 'is_bot'])
    .where('is_activated', '=', 1)
    .where('hide_profile', '=', 0);
  if (ids) q = q.where('id', 'in', ids.length > 0 ? ids : [0]);
  return q.orderBy('id').execute();
};

export async function countActivatedUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_activated', '=', 1)
    // People, not their bots.
    .where('is_bot', '=', 0)
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
      'is_bot',
    ])
    .where(sameUsername(username))
    .where('is_activated', '=', 1)
    .executeTakeFirst();

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

// --- For notifications ---

/** Of these people, those with Email Notifications on. */
export async function emailRecipients(db: Db, userIds: number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', userIds)
    .where('email_notification', '=', 1)
    .execute();
  return rows.map((r) => r.id);
}

export const mailRecipient = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .select(['email', 'first_name', 'email_notification', 'language', 'signup_language'])
    .where('id', '=', userId)
    .executeTakeFirst();

// --- For the admin module ---

const ADMIN_COLUMNS = [
  'id',
  'username',
  'email',
  'displayname',
  'avatar',
  'date_joined',
  'last_seen',
  'is_activated',
  'deactivated_at',
  'is_blue_verified',
  'is_site_admin',
] as const;

export type AdminUserRow = Pick<UserRow, (typeof ADMIN_COLUMNS)[number]>;
export type AdminSort = 'date_joined' | 'username' | 'email' | 'displayname' | 'last_seen';

/** `text` inside a LIKE pattern, taken literally. */
const likeLiteral = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** A page of everyone (activated or not), searched by username, display name or email, and how many match. */
export async function adminPage(
  db: Db,
  o: { q: string; sort: AdminSort; order: 'asc' | 'desc'; limit: number; offset: number },
): Promise<{ rows: AdminUserRow[]; count: number }> {
  const pattern = `%${likeLiteral(o.q)}%`;
  const matching = (qb: typeof base) =>
    o.q
      ? qb.where((eb) =>
          eb.or(
            (['username', 'displayname', 'email'] as const).map(
              (c) => sql<boolean>`lower(${sql.ref(c)}) LIKE ${pattern} ESCAPE '\\'`,
            ),
          ),
        )
      : qb;
  const base = db.selectFrom('users');
  const rows = await matching(base)
    .select([...ADMIN_COLUMNS])
    .orderBy(o.sort === 'username' ? sql`lower(username)` : sql.ref(o.sort), o.order)
    .orderBy('id', o.order)
    .limit(o.limit)
    .offset(o.offset)
    .execute();
  const total = await matching(base)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return { rows, count: Number(total.n) };
}

export const adminRow = (db: Db, id: number) =>
  db
    .selectFrom('users')
    .select([...ADMIN_COLUMNS])
    .where('id', '=', id)
    .executeTakeFirst();

/** Everyone, the activated, the deactivated and the site admins, in one statement. */
export async function adminCounts(db: Db) {
  const row = await db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll().as('total'),
      eb.fn.sum(eb.ref('is_activated')).as('activated'),
      eb.fn.count('deactivated_at').as('deactivated'),
      eb.fn.sum(eb.ref('is_site_admin')).as('admins'),
    ])
    .executeTakeFirstOrThrow();
  return {
    total: Number(row.total),
    activated: Number(row.activated ?? 0),
    deactivated: Number(row.deactivated),
    admins: Number(row.admins ?? 0),
  };
}

/** The ids of activated, not deactivated people (whose presence the console counts). */
export async function activeIds(db: Db): Promise<number[]> {
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('is_activated', '=', 1)
    .where('deactivated_at', 'is', null)
    .execute();
  return rows.map((r) => r.id);
}

export async function isSiteAdmin(db: Db, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', id)
    .where('is_site_admin', '=', 1)
    .where('deactivated_at', 'is', null)
    .executeTakeFirst();
  return !!row;
}
