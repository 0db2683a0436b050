import type { ExpressionBuilder, Insertable } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from './chats.repo';
import type { ChatInvitesTable } from './invites.tables';

// Every statement on chat_invites, the group invite links.

export async function insertInvite(db: Executor, row: Insertable<ChatInvitesTable>): Promise<number> {
  const r = await db.insertInto('chat_invites').values(row).returning('id').executeTakeFirstOrThrow();
  return r.id;
}

/** A link that can still bring someone in: not revoked, not expired, uses left. */
const usableAt = (now: string) => (eb: ExpressionBuilder<Database, 'chat_invites'>) =>
  eb.and([
    eb('chat_invites.revoked_at', 'is', null),
    eb.or([eb('chat_invites.expires_at', 'is', null), eb('chat_invites.expires_at', '>', now)]),
    eb.or([
      eb('chat_invites.max_uses', 'is', null),
      eb('chat_invites.uses', '<', eb.ref('chat_invites.max_uses')),
    ]),
  ]);

/** A group's links still usable, newest first. */
export const usableInvitesOf = (db: Executor, chatDbId: number, now: string) =>
  db
    .selectFrom('chat_invites')
    .select(['id', 'code', 'expires_at', 'max_uses', 'uses'])
    .where('chat_id', '=', chatDbId)
    .where(usableAt(now))
    .orderBy('id', 'desc')
    .execute();

/** A link by its code, with its group's row: whatever its state, or only while usable at `usableAt`. */
export const findInvite = (db: Executor, code: string, usableNow: string | null) =>
  db
    .selectFrom('chat_invites')
    .innerJoin('chats', 'chats.id', 'chat_invites.chat_id')
    .selectAll('chats')
    .select('chat_invites.id as invite_id')
    .where('chat_invites.code', '=', code)
    .$if(usableNow !== null, (q) => q.where(usableAt(usableNow as string)))
    .executeTakeFirst();

/**
 * Counts one use of a link if it is still usable, in one conditional update: two people racing for a link's
 * last use cannot both have it.
 */
export async function useInvite(db: Executor, inviteId: number, now: string): Promise<boolean> {
  const r = await db
    .updateTable('chat_invites')
    .set((eb) => ({ uses: eb('uses', '+', 1) }))
    .where('id', '=', inviteId)
    .where(usableAt(now))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Revokes a group's link still standing; false when the group has no such link or it was revoked already. */
export async function revokeInvite(db: Executor, chatDbId: number, code: string, now: string) {
  const r = await db
    .updateTable('chat_invites')
    .set({ revoked_at: now })
    .where('chat_id', '=', chatDbId)
    .where('code', '=', code)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return r?.id ?? null;
}

/**
 * Revokes the group's standing links made by someone who is not its owner or an admin now (or whose account is
 * gone): when a public group turns private, only its admins may bring people in.
 */
export async function revokeMembersLinks(db: Executor, chatDbId: number, now: string): Promise<number> {
  const r = await db
    .updateTable('chat_invites')
    .set({ revoked_at: now })
    .where('chat_id', '=', chatDbId)
    .where('revoked_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('created_by', 'is', null),
        eb(
          'created_by',
          'not in',
          eb
            .selectFrom('chat_members')
            .select('user_id')
            .where('chat_id', '=', chatDbId)
            .where('role', 'in', ['owner', 'admin'])
            .where('user_id', 'is not', null),
        ),
      ]),
    )
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** How many members a group has (a deleted account's row counts, as in the chat list). */
export async function memberCountOf(db: Executor, chatDbId: number): Promise<number> {
  const row = await db
    .selectFrom('chat_members')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('chat_id', '=', chatDbId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
