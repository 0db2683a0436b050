import { MAX_DB_ID } from '@parley/protocol';
import { sql, type Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { prepared, statementRuns } from '../../db/prepared';
import type { Database } from '../../db/schema';

// The only place the messages table's SQL lives. Unread counts join chat_members read-only (DESIGN §3: a repo
// may join another module's table inside one statement; it never writes it).
type Executor = Db | Transaction<Database>;

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
 * The newest message of each chat, with how many files it carries and the first one's name (files is the
 * attachments module's table, read here inside the one statement so a files-only message can be previewed).
 */
export const lastMessages = (db: Db, chatDbIds: number[]) =>
  chatDbIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(['id', 'chat_id', 'body', 'created_at', 'deleted_at'])
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
        ])
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('messages')
            .select((e) => e.fn.max('id').as('id'))
            .where('chat_id', 'in', chatDbIds)
            .groupBy('chat_id'),
        )
        .execute();

/** The id of a chat's newest message, 0 when it has none. */
export async function latestId(db: Executor, chatDbId: number): Promise<number> {
  const last = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('chat_id', '=', chatDbId)
    .executeTakeFirst();
  return Number(last?.id ?? 0);
}

/**
 * Messages unread by the member row they are joined with: past both of its marks, written by someone else,
 * not system lines. Unread counts per chat and per user both start from it.
 */
const unreadMessages = (db: Db) =>
  db
    .selectFrom('chat_members as cm')
    .innerJoin('messages as m', 'm.chat_id', 'cm.chat_id')
    .whereRef('m.id', '>', 'cm.last_read_id')
    .whereRef('m.id', '>', 'cm.cleared_before_id')
    .where('m.kind', '=', 'user')
    .where((eb) => eb.or([eb('m.sender_id', '!=', eb.ref('cm.user_id')), eb('m.sender_id', 'is', null)]));

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
 * Unread messages that call for attention: a chat the member muted counts only its messages that mention them
 * (issue 13).
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

/** A message's stored columns, without its sender's: those come from the users module or the chat's members. */
const messageColumns = [
  'id',
  'chat_id',
  'sender_id',
  'kind',
  'client_id',
  'body',
  'created_at',
  'edited_at',
  'deleted_at',
  'reply_to_id',
  'mentions',
  'reaction_count',
] as const;

export const messageById = (db: Executor, id: number) =>
  db.selectFrom('messages').select(messageColumns).where('id', '=', id).executeTakeFirst();
export type StoredMessage = NonNullable<Awaited<ReturnType<typeof messageById>>>;

/**
 * A message read for a change inside `trx`, its row locked until the transaction ends (a no-op UPDATE, which
 * locks in PostgreSQL and SQLite alike): edits, deletions and reactions of one message run one after another,
 * so a deletion cannot miss a version or reaction another transaction is adding, nor two reactions both pass
 * the emoji limit.
 */
export const lockedMessage = (trx: Transaction<Database>, id: number) =>
  trx
    .updateTable('messages')
    .set((eb) => ({ deleted_at: eb.ref('deleted_at') }))
    .where('id', '=', id)
    .returning(messageColumns)
    .executeTakeFirst();

/** Several messages of one chat by id (search results), newest first. */
export const messagesByIds = (db: Db, chatDbId: number, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(messageColumns)
        .where('chat_id', '=', chatDbId)
        .where('id', 'in', ids)
        .orderBy('id', 'desc')
        .execute();

export const messageByClientId = (db: Executor, chatDbId: number, senderId: number, clientId: string) =>
  db
    .selectFrom('messages')
    .select(['id', 'chat_id'])
    .where('chat_id', '=', chatDbId)
    .where('sender_id', '=', senderId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();

export type NewMessageRow = Omit<StoredMessage, 'id' | 'edited_at' | 'deleted_at' | 'reaction_count'>;

/** Rows per INSERT at most: the batch is cut into runs of powers of two up to this (powerOfTwoRuns). */
const INSERT_RUN = 256;

/**
 * Inserts many messages in a few multi-row statements, in order: on SQLite runs of 256, 128 … 1 rows, so that it
 * keeps nine statement texts prepared instead of one per batch size (each of hundreds of rows is large); on
 * PostgreSQL, where a statement is a round trip, in one. A row whose
 * (sender, chat, client_id) is already stored is skipped: the answer holds only the inserted rows, in id order,
 * which is the order given.
 */
export async function insertMessages(db: Executor, rows: NewMessageRow[]) {
  const inserted = [];
  for (const run of statementRuns(db, rows, INSERT_RUN)) {
    inserted.push(
      ...(await db
        .insertInto('messages')
        .values(run)
        .onConflict((oc) => oc.columns(['client_id', 'sender_id', 'chat_id']).doNothing())
        .returning(['id', 'chat_id', 'sender_id', 'client_id'])
        .execute()),
    );
  }
  return inserted.sort((a, b) => a.id - b.id);
}

/** Of the given ids, those that are messages of this chat (and not system lines). */
export const messagesInChat = (db: Db, chatDbId: number, ids: number[]) =>
  db
    .selectFrom('messages')
    .select(['id', 'sender_id'])
    .where('chat_id', '=', chatDbId)
    .where('id', 'in', ids)
    .where('kind', '=', 'user')
    .execute();

/** What a history page shows of a message: its stored columns but the chat's, which is the page's. */
const pageColumns = messageColumns.filter((c) => c !== 'chat_id') as Exclude<
  (typeof messageColumns)[number],
  'chat_id'
>[];

interface Keyset {
  chat: number;
  /** Past this id (exclusive): the reader's cleared mark, or the message a catch-up starts after. */
  after: number;
  /** Up to this id (inclusive). */
  upTo: number;
  limit: number;
}

// A history page is one keyset statement on messages_chat_id (chat_id, id), prepared once: the newest `limit`
// messages in the range, or the oldest (a catch-up walks forward through these).
const keysetIn = (order: 'asc' | 'desc') =>
  prepared((db, p: Keyset) =>
    db
      .selectFrom('messages')
      .select(pageColumns)
      .where('chat_id', '=', p.chat)
      .where('id', '>', p.after)
      .where('id', '<=', p.upTo)
      .orderBy('id', order)
      .limit(p.limit),
  );
const newestIn = keysetIn('desc');
const oldestIn = keysetIn('asc');
export type PageRow = Awaited<ReturnType<typeof newestIn>>[number];

/**
 * A page of a chat's messages, oldest first, in one statement: the newest ones, those before `before`, or
 * those after `after` (which wins over `before`), all past `clearedBefore`.
 */
export async function messagesPage(
  db: Db,
  chatDbId: number,
  opts: { before?: number; after?: number; limit: number; clearedBefore: number },
): Promise<PageRow[]> {
  const { limit, clearedBefore } = opts;
  if (opts.after !== undefined)
    return oldestIn(db, {
      chat: chatDbId,
      after: Math.max(opts.after, clearedBefore),
      upTo: MAX_DB_ID,
      limit,
    });
  const upTo = opts.before !== undefined ? opts.before - 1 : MAX_DB_ID;
  const rows = await newestIn(db, { chat: chatDbId, after: clearedBefore, upTo, limit });
  return rows.reverse();
}

/** A page of `limit` consecutive messages with `aroundId` in the middle, oldest first. */
export async function messagesAround(
  db: Db,
  chatDbId: number,
  opts: { aroundId: number; limit: number; clearedBefore: number },
): Promise<PageRow[]> {
  const { aroundId, limit, clearedBefore } = opts;
  const older = Math.ceil(limit / 2);
  const [upTo, after] = await Promise.all([
    newestIn(db, { chat: chatDbId, after: clearedBefore, upTo: aroundId, limit: older }),
    oldestIn(db, {
      chat: chatDbId,
      after: Math.max(aroundId, clearedBefore),
      upTo: MAX_DB_ID,
      limit: limit - older,
    }),
  ]);
  return [...upTo.reverse(), ...after];
}

/** The messages replies quote: enough to show each quote and to check it is in the replying chat. */
export const quotesOf = (db: Executor, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(['id', 'chat_id', 'sender_id', 'kind', 'body', 'deleted_at'])
        .where('id', 'in', ids)
        .execute();
export type QuotedRow = Awaited<ReturnType<typeof quotesOf>>[number];

/**
 * Every reaction on a chat's messages from `first` to `last` (a history page's stretch), oldest first: only
 * messages that carry any are looked at.
 */
export const reactionsInRange = prepared((db, p: { chat: number; first: number; last: number }) =>
  db
    .selectFrom('messages')
    .innerJoin('message_reactions as r', 'r.message_id', 'messages.id')
    .select(['r.message_id', 'r.emoji', 'r.user_id'])
    .where('messages.chat_id', '=', p.chat)
    .where('messages.id', '>=', p.first)
    .where('messages.id', '<=', p.last)
    .where('messages.reaction_count', '>', 0)
    .orderBy('r.id'),
);

/** Every reaction on these messages, oldest first. */
export const reactionsOf = (db: Executor, messageIds: number[]) =>
  messageIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('message_reactions')
        .select(['message_id', 'emoji', 'user_id'])
        .where('message_id', 'in', messageIds)
        .orderBy('id')
        .execute();
export type ReactionRow = Awaited<ReturnType<typeof reactionsOf>>[number];

const countReactions = (db: Executor, messageId: number, by: number) =>
  db
    .updateTable('messages')
    .set((eb) => ({ reaction_count: eb('reaction_count', '+', by) }))
    .where('id', '=', messageId)
    .execute();

/** Adds one person's reaction; false when it was there already. */
export async function addReaction(
  db: Executor,
  r: { message_id: number; user_id: number; emoji: string; created_at: string },
): Promise<boolean> {
  const added = await db
    .insertInto('message_reactions')
    .values(r)
    .onConflict((oc) => oc.columns(['message_id', 'user_id', 'emoji']).doNothing())
    .returning('id')
    .execute();
  if (added.length > 0) await countReactions(db, r.message_id, 1);
  return added.length > 0;
}

/** Removes one person's reaction; false when there was none. */
export async function removeReaction(
  db: Executor,
  r: { message_id: number; user_id: number; emoji: string },
): Promise<boolean> {
  const removed = await db
    .deleteFrom('message_reactions')
    .where('message_id', '=', r.message_id)
    .where('user_id', '=', r.user_id)
    .where('emoji', '=', r.emoji)
    .returning('id')
    .execute();
  if (removed.length > 0) await countReactions(db, r.message_id, -1);
  return removed.length > 0;
}

/** The different emoji a message carries. */
export async function emojiOf(db: Executor, messageId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('message_reactions')
    .select('emoji')
    .distinct()
    .where('message_id', '=', messageId)
    .execute();
  return rows.map((r) => r.emoji);
}

/** Replaces a message's text, keeping the text it had as an earlier version. */
export async function replaceBody(
  db: Executor,
  m: { id: number; previous: string; body: string; mentions: string; at: string },
): Promise<void> {
  await db
    .insertInto('message_edits')
    .values({ message_id: m.id, body: m.previous, edited_at: m.at })
    .execute();
  await db
    .updateTable('messages')
    .set({ body: m.body, mentions: m.mentions, edited_at: m.at })
    .where('id', '=', m.id)
    .execute();
}

/** Earlier versions of a message, oldest first. */
export const editsOf = (db: Executor, messageId: number) =>
  db
    .selectFrom('message_edits')
    .select(['body', 'edited_at'])
    .where('message_id', '=', messageId)
    .orderBy('id')
    .execute();

/** Deletes a message for everyone: its text, earlier versions and reactions are erased, the row stays as a marker. */
export async function eraseMessage(db: Executor, id: number, at: string): Promise<void> {
  await db.deleteFrom('message_edits').where('message_id', '=', id).execute();
  await db.deleteFrom('message_reactions').where('message_id', '=', id).execute();
  await db
    .updateTable('messages')
    .set({ body: '', mentions: '[]', deleted_at: at, edited_at: null, reaction_count: 0 })
    .where('id', '=', id)
    .execute();
}

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
    .where((eb) => eb.or([eb('sender_id', '!=', userId), eb('sender_id', 'is', null)]))
    .executeTakeFirst();
  const n = Number(row?.n ?? 0);
  return { count: n, firstId: n > 0 ? Number(row?.first) : null };
}
