import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { EmailDigestsTable, PushSubscriptionsTable } from './notifications.tables';

// The only place the notifications module's SQL lives: push_subscriptions and email_digests
// (notifications.tables.ts). Whether someone wants a mail at all is the users table's, asked of accounts.

/** Browsers one person keeps subscribed; older ones beyond this are dropped. */
export const MAX_SUBSCRIPTIONS_PER_USER = 10;

/** Where a push goes: the browser's endpoint and keys, whose it is, and the language its texts are in. */
export type PushTarget = Pick<PushSubscriptionsTable, 'user_id' | 'endpoint' | 'p256dh' | 'auth'> & {
  language: string | null;
  signup_language: string | null;
};

/** Stores a browser's subscription; an endpoint already known (even another person's) is taken over. */
export async function upsertSubscription(db: Db, row: Insertable<PushSubscriptionsTable>): Promise<void> {
  await db
    .insertInto('push_subscriptions')
    .values(row)
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet({
        user_id: row.user_id,
        session_id: row.session_id,
        p256dh: row.p256dh,
        auth: row.auth,
        created_at: row.created_at,
      }),
    )
    .execute();
  const surplus = await db
    .selectFrom('push_subscriptions')
    .select('id')
    .where('user_id', '=', row.user_id)
    .orderBy('id', 'desc')
    .offset(MAX_SUBSCRIPTIONS_PER_USER)
    .limit(1000)
    .execute();
  if (surplus.length > 0)
    await db
      .deleteFrom('push_subscriptions')
      .where(
        'id',
        'in',
        surplus.map((s) => s.id),
      )
      .execute();
}

export async function deleteSubscription(db: Db, userId: number, endpoint: string): Promise<void> {
  await db
    .deleteFrom('push_subscriptions')
    .where('user_id', '=', userId)
    .where('endpoint', '=', endpoint)
    .execute();
}

/** For an endpoint the push service says is gone. */
export async function deleteSubscriptionByEndpoint(db: Db, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();
}

/**
 * The subscriptions to push to: of these people, those with Push Notifications on, on a live session; each with
 * its person's language settings, which the push is written in as their mail is (mailLocale).
 */
export async function pushTargets(db: Db, userIds: number[], now: string): Promise<PushTarget[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('push_subscriptions as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .innerJoin('sessions as s', 's.id', 'p.session_id')
    .select(['p.user_id', 'p.endpoint', 'p.p256dh', 'p.auth', 'u.language', 'u.signup_language'])
    .where('p.user_id', 'in', userIds)
    .where('u.push_notification', '=', 1)
    .where('s.expires_at', '>', now)
    .execute();
}

/** Plans one digest per person; someone who already has one pending keeps its time (the batching window). */
export async function scheduleDigests(db: Db, userIds: number[], dueAt: string): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto('email_digests')
    .values(userIds.map((user_id) => ({ user_id, due_at: dueAt })))
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

export async function pendingDigests(db: Db, userIds: number[]): Promise<EmailDigestsTable[]> {
  if (userIds.length === 0) return [];
  return db
    .selectFrom('email_digests')
    .select(['user_id', 'due_at'])
    .where('user_id', 'in', userIds)
    .execute();
}

export async function dueDigests(db: Db, now: string, limit: number): Promise<EmailDigestsTable[]> {
  return db
    .selectFrom('email_digests')
    .select(['user_id', 'due_at'])
    .where('due_at', '<=', now)
    .orderBy('due_at')
    .limit(limit)
    .execute();
}

/**
 * Takes this exact pending digest for the caller: true for the one process whose delete removed the row, so
 * two processes polling the same table never both send it. Also the way a digest is cancelled.
 */
export async function takeDigest(db: Db, digest: EmailDigestsTable): Promise<boolean> {
  const result = await db
    .deleteFrom('email_digests')
    .where('user_id', '=', digest.user_id)
    .where('due_at', '=', digest.due_at)
    .executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
