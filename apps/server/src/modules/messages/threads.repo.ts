import { sql } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import { type Executor, messageColumns } from './messages.repo';

// The SQL of threads: the roots' summaries, who follows and took part in each thread (thread_follows), a
// thread's replies and the threads a person follows. Reads of chat_members and blocks are joins inside one
// statement (DESIGN §3); nothing here writes them.

/** A thread reply as the group commit stored it. */
export interface StoredReply {
  root: number;
  id: number;
  senderId: number;
  createdAt: string;
  /** The root's author (null: a deleted account's, or a system line's). */
  rootAuthor: number | null;
  /** The members the reply mentions: they follow the thread from now on. */
  mentions: number[];
}

type FollowRow = { root_id: number; user_id: number; first_reply_id: number | null; last_read_id: number };

/** One row per (root, user), the first given winning: PostgreSQL refuses an upsert that meets a row twice. */
const unique = (rows: FollowRow[]): FollowRow[] => {
  const byKey = new Map<string, FollowRow>();
  for (const r of rows)
    if (!byKey.has(`${r.root_id}:${r.user_id}`)) byKey.set(`${r.root_id}:${r.user_id}`, r);
  return [...byKey.values()];
};

/**
 * Counts a batch's replies on their roots and records who follows: the root's author (unless they stopped
 * following), each replier (again, and what they answered counts as read) and each person mentioned. Relative
 * updates and upserts only, so processes writing replies to one thread at once lose none.
 */
export async function recordReplies(trx: Executor, replies: StoredReply[]): Promise<void> {
  const byRoot = new Map<number, { n: number; last: string }>();
  for (const r of replies) {
    const seen = byRoot.get(r.root);
    byRoot.set(r.root, {
      n: (seen?.n ?? 0) + 1,
      last: seen && seen.last > r.createdAt ? seen.last : r.createdAt,
    });
  }
  for (const [root, { n, last }] of byRoot) {
    await trx
      .updateTable('messages')
      .set((eb) => ({
        thread_reply_count: eb('thread_reply_count', '+', n),
        thread_last_reply_at: sql<string>`case when thread_last_reply_at is null or thread_last_reply_at < ${last} then ${last} else thread_last_reply_at end`,
      }))
      .where('id', '=', root)
      .execute();
  }
  const authors = unique(
    replies.flatMap((r) =>
      r.rootAuthor === null
        ? []
        : [{ root_id: r.root, user_id: r.rootAuthor, first_reply_id: r.root, last_read_id: 0 }],
    ),
  );
  if (authors.length > 0)
    await trx
      .insertInto('thread_follows')
      .values(authors)
      .onConflict((oc) =>
        oc.columns(['root_id', 'user_id']).doUpdateSet({
          first_reply_id: sql<number>`coalesce(thread_follows.first_reply_id, excluded.first_reply_id)`,
        }),
      )
      .execute();
  // Newest reply first per person, so the upsert keeps the highest read mark; first_reply_id takes the lowest.
  const repliers = unique(
    [...replies]
      .sort((a, b) => b.id - a.id)
      .map((r) => ({ root_id: r.root, user_id: r.senderId, first_reply_id: r.id, last_read_id: r.id })),
  );
  await trx
    .insertInto('thread_follows')
    .values(repliers)
    .onConflict((oc) =>
      oc.columns(['root_id', 'user_id']).doUpdateSet({
        following: 1,
        first_reply_id: sql<number>`case when thread_follows.first_reply_id is null or thread_follows.first_reply_id > excluded.first_reply_id then excluded.first_reply_id else thread_follows.first_reply_id end`,
        last_read_id: sql<number>`case when thread_follows.last_read_id < excluded.last_read_id then excluded.last_read_id else thread_follows.last_read_id end`,
      }),
    )
    .execute();
  const mentioned = unique(
    replies.flatMap((r) =>
      r.mentions.map((user_id) => ({ root_id: r.root, user_id, first_reply_id: null, last_read_id: 0 })),
    ),
  );
  if (mentioned.length > 0)
    await trx
      .insertInto('thread_follows')
      .values(mentioned)
      .onConflict((oc) => oc.columns(['root_id', 'user_id']).doUpdateSet({ following: 1 }))
      .execute();
}

/** The roots' reply counts and last reply times. */
export const rootCounts = (db: Executor, rootIds: number[]) =>
  db
    .selectFrom('messages')
    .select(['id', 'thread_reply_count', 'thread_last_reply_at'])
    .where('id', 'in', rootIds)
    .execute();

/** Each thread's participants, first come first: the root's author and each replier. */
export async function participantsOf(db: Executor, rootIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (rootIds.length === 0) return out;
  const rows = await db
    .selectFrom('thread_follows')
    .select(['root_id', 'user_id'])
    .where('root_id', 'in', rootIds)
    .where('first_reply_id', 'is not', null)
    .orderBy('first_reply_id')
    .execute();
  for (const r of rows) {
    const ids = out.get(r.root_id) ?? [];
    ids.push(r.user_id);
    out.set(r.root_id, ids);
  }
  return out;
}

/** Who follows each thread. */
export async function followersOf(db: Executor, rootIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  const rows = await db
    .selectFrom('thread_follows')
    .select(['root_id', 'user_id'])
    .where('root_id', 'in', rootIds)
    .where('following', '=', 1)
    .execute();
  for (const r of rows) out.set(r.root_id, [...(out.get(r.root_id) ?? []), r.user_id]);
  return out;
}

const threadRepliesStatement = prepared((db, p: { rootId: number; after: number; limit: number }) =>
  db
    .selectFrom('messages')
    .select(messageColumns)
    .where('thread_root_id', '=', p.rootId)
    .where('id', '>', p.after)
    .orderBy('id')
    .limit(p.limit),
);
/** A thread's replies after `after`, oldest first, on messages_thread (thread_root_id, id); prepared once. */
export const threadReplies = (db: Db, rootId: number, after: number, limit: number) =>
  threadRepliesStatement(db, { rootId, after, limit });

/** A thread's newest `n` replies, oldest first. */
export async function newestReplies(db: Db, rootId: number, n: number) {
  const rows = await db
    .selectFrom('messages')
    .select(messageColumns)
    .where('thread_root_id', '=', rootId)
    .orderBy('id', 'desc')
    .limit(n)
    .execute();
  return rows.reverse();
}

const followStatement = prepared((db, p: { rootId: number; userId: number }) =>
  db
    .selectFrom('thread_follows')
    .select(['following', 'last_read_id'])
    .where('root_id', '=', p.rootId)
    .where('user_id', '=', p.userId),
);
/** Whether a person follows a thread, and their read mark in it (undefined: never took part or followed). */
export const followOf = async (db: Db, rootId: number, userId: number) =>
  (await followStatement(db, { rootId, userId }))[0];

/** Starts or stops following a thread (a participant stays one). */
export const setFollowing = (db: Db, rootId: number, userId: number, following: boolean) =>
  db
    .insertInto('thread_follows')
    .values({ root_id: rootId, user_id: userId, following: following ? 1 : 0 })
    .onConflict((oc) => oc.columns(['root_id', 'user_id']).doUpdateSet({ following: following ? 1 : 0 }))
    .execute();

/** Moves a follower's read mark in a thread forward (never back); true when it moved. */
export async function markThreadRead(db: Db, rootId: number, userId: number, upTo: number): Promise<boolean> {
  const moved = await db
    .updateTable('thread_follows')
    .set({ last_read_id: upTo })
    .where('root_id', '=', rootId)
    .where('user_id', '=', userId)
    .where('last_read_id', '<', upTo)
    .executeTakeFirst();
  return Number(moved.numUpdatedRows) > 0;
}

/**
 * The threads a person follows in chats they are still in, that have replies, newest activity first: a page of
 * `limit` from `offset`.
 */
export const followedThreads = (db: Db, userId: number, offset: number, limit: number) =>
  db
    .selectFrom('thread_follows as f')
    .innerJoin('messages as m', 'm.id', 'f.root_id')
    .innerJoin('chat_members as cm', (j) =>
      j.onRef('cm.chat_id', '=', 'm.chat_id').onRef('cm.user_id', '=', 'f.user_id'),
    )
    .select(['f.root_id', 'f.last_read_id', 'm.chat_id'])
    .where('f.user_id', '=', userId)
    .where('f.following', '=', 1)
    .where('m.thread_reply_count', '>', 0)
    .orderBy('m.thread_last_reply_at', 'desc')
    .orderBy('m.id', 'desc')
    .offset(offset)
    .limit(limit)
    .execute();

/**
 * Replies from others a follower has not read: per thread of `rootIds` for one person, or over all the threads
 * each of `userIds` follows in chats they are in (`timelineToo` false: leaving out replies also sent to the chat,
 * which the chat's own unread count has).
 */
const unreadReplies = (db: Executor, timelineToo: boolean) =>
  db
    .selectFrom('thread_follows as f')
    .innerJoin('messages as r', 'r.thread_root_id', 'f.root_id')
    .innerJoin('chat_members as cm', (j) =>
      j.onRef('cm.chat_id', '=', 'r.chat_id').onRef('cm.user_id', '=', 'f.user_id'),
    )
    .whereRef('r.id', '>', 'f.last_read_id')
    .whereRef('r.id', '>', 'cm.cleared_before_id')
    .where('f.following', '=', 1)
    .where('r.kind', '=', 'user')
    .where((eb) => eb.or([eb('r.sender_id', '!=', eb.ref('f.user_id')), eb('r.sender_id', 'is', null)]))
    .$if(!timelineToo, (q) => q.where('r.in_timeline', '=', 0));

export const unreadPerThread = (db: Db, userId: number, rootIds: number[]) =>
  unreadReplies(db, true)
    .select(['f.root_id', (eb) => eb.fn.countAll().as('n')])
    .where('f.user_id', '=', userId)
    .where('f.root_id', 'in', rootIds)
    .groupBy('f.root_id')
    .execute();

export const unreadThreadTotals = (db: Db, userIds: number[]) =>
  unreadReplies(db, false)
    .select(['f.user_id', (eb) => eb.fn.countAll().as('n')])
    .where('f.user_id', 'in', userIds)
    .groupBy('f.user_id')
    .execute();

/** Unread followed replies per chat (row id) for one person: the missed-message mail names them. */
export const unreadThreadRepliesPerChat = (db: Db, userId: number) =>
  unreadReplies(db, false)
    .select(['r.chat_id', (eb) => eb.fn.countAll().as('n')])
    .where('f.user_id', '=', userId)
    .groupBy('r.chat_id')
    .execute();
