import { MAX_DB_ID } from '@parley/protocol';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import { prepared } from '../../db/prepared';
import type { Database } from '../../db/schema';

// Reads of stored messages: by id, history pages, the messages replies quote and reactions. The messages
// module's other SQL is split by job beside it: message-inserts.repo.ts (the group commit's writes),
// message-changes.repo.ts (edits, deletions, reactions) and message-stats.repo.ts (counts).
export type Executor = Db | Transaction<Database>;

/** A message's stored columns, without its sender's: those come from the users module or the chat's members. */
export const messageColumns = [
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
  'thread_root_id',
  'in_timeline',
  'thread_reply_count',
  'thread_last_reply_at',
  'forwarded',
  'link_preview',
  'has_poll',
  'app_name',
] as const;

const messageByIdStatement = prepared((db, p: { id: number }) =>
  db.selectFrom('messages').select(messageColumns).where('id', '=', p.id),
);
/** One stored message by id (a thread's root on every page of it, a message checked before a change). */
export const messageById = async (db: Executor, id: number) => (await messageByIdStatement(db, { id }))[0];
export type StoredMessage = NonNullable<Awaited<ReturnType<typeof messageById>>>;
/** A message's columns of threads: the root it replies under, and on a root its count and last reply time. */
export type ThreadColumns = 'thread_root_id' | 'in_timeline' | 'thread_reply_count' | 'thread_last_reply_at';
/** Columns a row may lack when it was read by a statement older than them (a message then plain). */
export type LaterColumns = ThreadColumns | 'forwarded' | 'link_preview' | 'has_poll' | 'app_name';

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

/** The id of a chat's newest message, 0 when it has none. */
export async function latestId(db: Executor, chatDbId: number): Promise<number> {
  const last = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('chat_id', '=', chatDbId)
    .executeTakeFirst();
  return Number(last?.id ?? 0);
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

/** Of the given ids, the replies in this thread of this chat. */
export async function repliesAmong(
  db: Db,
  chatDbId: number,
  rootId: number,
  ids: number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('messages')
    .select('id')
    .where('chat_id', '=', chatDbId)
    .where('thread_root_id', '=', rootId)
    .where('id', 'in', ids)
    .execute();
  return rows.map((r) => r.id);
}

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

// A history page is one keyset statement on messages_timeline (chat_id, in_timeline, id), prepared once: the
// newest `limit` messages of the main timeline in the range, or the oldest (a catch-up walks forward through
// these). Replies sent only to their thread are not in it.
const keysetIn = (order: 'asc' | 'desc') =>
  prepared((db, p: Keyset) =>
    db
      .selectFrom('messages')
      .select(pageColumns)
      .where('chat_id', '=', p.chat)
      .where('in_timeline', '=', 1)
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

/**
 * The messages replies quote, and the roots of thread replies: enough to show each quote and to check it is in
 * the replying chat (and a root not itself in a thread). A poll's question is read with it (polls is the polls
 * module's table, read here inside the one statement), since a poll's body is empty.
 */
export const quotesOf = (db: Executor, ids: number[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(['id', 'chat_id', 'sender_id', 'kind', 'body', 'deleted_at', 'thread_root_id', 'app_name'])
        .select((eb) =>
          eb
            .selectFrom('polls')
            .select('polls.question')
            .whereRef('polls.message_id', '=', 'messages.id')
            .as('poll_question'),
        )
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
