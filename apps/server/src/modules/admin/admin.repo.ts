import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import type { InviteLinksTable } from './admin.tables';

// Every statement on site_settings and invite_links. Invite links name their creator from users (accounts'),
// read-only, in the same statement.

/** The one settings row; a database without it (emptied by hand) reads as a fresh server's: sign-ups open. */
export async function readSettings(
  db: Db,
): Promise<{ signups: string; domains: string; bot_creators: string }> {
  const row = await db
    .selectFrom('site_settings')
    .select(['signups', 'domains', 'bot_creators'])
    .where('id', '=', 1)
    .executeTakeFirst();
  return row ?? { signups: 'open', domains: '[]', bot_creators: 'everyone' };
}

export async function writeSettings(
  db: Db,
  changes: {
    signups: 'open' | 'closed' | 'domains';
    domains: string;
    bot_creators: 'everyone' | 'admins';
    updated_at: string;
  },
): Promise<void> {
  await db
    .insertInto('site_settings')
    .values({ id: 1, ...changes })
    .onConflict((oc) => oc.column('id').doUpdateSet(changes))
    .execute();
}

export async function insertInvite(db: Db, row: Insertable<InviteLinksTable>): Promise<number> {
  const r = await db.insertInto('invite_links').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

export const listInvites = (db: Db) =>
  db
    .selectFrom('invite_links as i')
    .leftJoin('users as u', 'u.id', 'i.created_by')
    .select([
      'i.id',
      'i.token',
      'i.created_by',
      'i.created_at',
      'i.expires_at',
      'i.max_uses',
      'i.uses',
      'i.revoked_at',
      'u.username as created_by_username',
    ])
    .orderBy('i.id', 'desc')
    .execute();

/** Revokes a link still standing; false when there is no such link or it was revoked already. */
export async function revokeInvite(db: Db, id: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invite_links')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Uses a link once, if it is still usable (not revoked, not expired, uses left): one conditional update, so
 * two sign-ups racing for a link's last use cannot both have it.
 */
/** Whether an invite link can still be used (not revoked, not expired, not used up), in one statement. */
const usableAt = (now: string) => (eb: ExpressionBuilder<Database, 'invite_links'>) =>
  eb.and([
    eb('revoked_at', 'is', null),
    eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
    eb.or([eb('max_uses', 'is', null), eb('uses', '<', eb.ref('max_uses'))]),
  ]);

export async function useInvite(db: Db, token: string, now: string): Promise<boolean> {
  const r = await db
    .updateTable('invite_links')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('token', '=', token)
    .where(usableAt(now))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Whether any invite link can still be used (the sign-up page then asks for one while sign-ups are closed). */
export async function anyUsableInvite(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('invite_links')
    .select('id')
    .where(usableAt(now))
    .limit(1)
    .executeTakeFirst();
  return !!row;
}
