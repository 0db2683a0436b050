import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';

// Counts of messages: unread per chat and per person, the chat list's last messages, the admin console's
// figures. Unread counts join chat_members and look at blocks read-only (DESIGN §3: a repo may join another
// module's table inside one statement; it never writes it): a message from someone the reader blocked is never
// unread for them.

/** People's messages per UTC day (YYYY-MM-DD) since `since` (an ISO time), for the admin console's chart. */
export async function countPerDay(db: Db, since: string): Promise<{ day: string; n: number }[]> {
  const day = sql<string>`substr(created_at, 1, 10)`;
  const rows = await db
    .selectFrom('messages')
    .select([day.as('day'), (eb) => eb.fn.countAll().as('n')])
    .where('kind', '=', 'user')
    .where('created_at', '>=', since)
    .groupBy(day)
    .execute();
  return rows.map((r) => ({ day: String(r.day), n: Number(r.n) }));
}

export async function countUserMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', 'user')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The newest message of each chat, with how many files it carries and the first one's name and kind (files is the
 * attachments module's table, read here inside the one statement so a files-only message can be previewed), and
 * a poll's question (polls is the polls module's, read alike).
 * Messages of `exceptSenders` (the people the reader blocked) are passed over: the one before stands instead.
 */
export const lastMessages = (db: Db, chatDbIds: number[], exceptSenders: number[] = []) =>
  chatDbIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(['id', 'chat_id', 'body', 'created_at', 'deleted_at', 'kind'])
        .select((eb) => [
          eb
            .selectFrom('files')
            .select((f) => f.fn.countAll().as('n'))
            .whereRef('files.message_id', '=', 'messages.id')
            .as('file_count'),
          eb
            .selectFrom('files')
            .select('files.name')
            .whereRef('files.message_id', '=', 'messages.id')
            .orderBy('files.id')
            .limit(1)
            .as('file_name'),
          eb
            .selectFrom('files')
            .select('files.kind')
            .whereRef('files.message_id', '=', 'messages.id')
            .orderBy('files.id')
            .limit(1)
            .as('file_kind'),
          eb
            .selectFrom('polls')
            .select('polls.question')
            .whereRef('polls.message_id', '=', 'messages.id')
            .as('poll_question'),
        ])
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('messages')
            .select((e) => e.fn.max('id').as('id'))
            .where('chat_id', 'in', chatDbIds)
            .where('in_timeline', '=', 1)
            .$if(exceptSenders.length > 0, (q) =>
              q.where((e) => e.or([e('sender_id', 'is', null), e('sender_id', 'not in', exceptSenders)])),
            )
            .groupBy('chat_id'),
        )
        .execute();

/**
 * Messages of the main timeline unread by the member row they are joined with: past both of its marks, written by someone else whom
 * the member has not blocked, not system lines. Unread counts per chat and per user both start from it.
 */
const unreadMessages = (db: Db) =>
  db
    .selectFrom('chat_members as cm')
    .innerJoin('messages as m', 'm.chat_id', 'cm.chat_id')
    .whereRef('m.id', '>', 'cm.last_read_id')
    .whereRef('m.id', '>', 'cm.cleared_before_id')
    .where('m.kind', '=', 'user')
    .where('m.in_timeline', '=', 1)
    .where((eb) => eb.or([eb('m.sender_id', '!=', eb.ref('cm.user_id')), eb('m.sender_id', 'is', null)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('blocks as b')
            .select('b.id')
            .whereRef('b.blocker_id', '=', 'cm.user_id')
            .whereRef('b.blocked_id', '=', 'm.sender_id'),
        ),
      ),
    );

/** Unread messages from others per chat for one user. */
export const unreadCounts = (db: Db, userId: number) =>
  unreadMessages(db)
    .select(['m.chat_id', (eb) => eb.fn.countAll().as('n')])
    .where('cm.user_id', '=', userId)
    .groupBy('m.chat_id')
    .execute();

/** The chats (row ids) where an unread message mentions this user. */
export async function chatsMentioningUnread(db: Db, userId: number): Promise<number[]> {
  // mentions is a JSON array of ids: with its brackets turned into commas, ",<id>," finds the exact id.
  const rows = await unreadMessages(db)
    .select('m.chat_id')
    .distinct()
    .where('cm.user_id', '=', userId)
    .where(sql<string>`replace(replace(m.mentions, '[', ','), ']', ',')`, 'like', `%,${userId},%`)
    .execute();
  return rows.map((r) => r.chat_id);
}

/**
 * Unread messages that call for attention: a chat the member muted counts only its messages that mention them.
 */
const unreadCallingForAttention = (db: Db, now: string) =>
  unreadMessages(db).where((eb) =>
    eb.or([
      eb('cm.muted_until', 'is', null),
      eb('cm.muted_until', '<=', now),
      eb(
        sql<string>`replace(replace(m.mentions, '[', ','), ']', ',')`,
        'like',
        sql<string>`'%,' || ${sql.ref('cm.user_id')} || ',%'`,
      ),
    ]),
  );

/** Those unread messages over all chats, counted for each of these users (a user with none is left out). */
export const unreadTotals = (db: Db, userIds: number[], now = new Date().toISOString()) =>
  unreadCallingForAttention(db, now)
    .select(['cm.user_id', (eb) => eb.fn.countAll().as('n')])
    .where('cm.user_id', 'in', userIds)
    .groupBy('cm.user_id')
    .execute();

/** The same total for one user, prepared: every socket that opens asks it (its first notification_count). */
export const unreadTotalOf = prepared((db, p: { user: number; now: string }) =>
  unreadCallingForAttention(db, p.now)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('cm.user_id', '=', p.user),
);

/** How many messages of a chat are unread by this member, and the first of them. */
export async function unreadIn(
  db: Db,
  chatDbId: number,
  userId: number,
  marks: { lastRead: number; clearedBefore: number },
) {
  const row = await db
    .selectFrom('messages')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.min('id').as('first')])
    .where('chat_id', '=', chatDbId)
    .where('id', '>', Math.max(marks.lastRead, marks.clearedBefore))
    .where('kind', '=', 'user')
    .where('in_timeline', '=', 1)
    .where((eb) => eb.or([eb('sender_id', '!=', userId), eb('sender_id', 'is', null)]))
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('blocks as b')
            .select('b.id')
            .where('b.blocker_id', '=', userId)
            .whereRef('b.blocked_id', '=', 'messages.sender_id'),
        ),
      ),
    )
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  return { count: n, firstId: n > 0 ? Number(row?.first) : null };
}
