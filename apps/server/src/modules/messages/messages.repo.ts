import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

// The only place the messages table's SQL lives. Unread counts join chat_members read-only (DESIGN §3: a repo
// may join another module's table inside one statement; it never writes it).
type Executor = Db | Transaction<Database>;

export async function countUserMessages(db: Db): Promise<number> {
  const row = await db
    .selectFrom('messages')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', 'user')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The newest message of each chat. */
export const lastMessages = (db: Db, chatDbIds: number[]) =>
  chatDbIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('messages')
        .select(['id', 'chat_id', 'body', 'created_at'])
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

/** Unread messages over all chats, for each of these users (a user with none is left out). */
export const unreadTotals = (db: Db, userIds: number[]) =>
  unreadMessages(db)
    .select(['cm.user_id', (eb) => eb.fn.countAll().as('n')])
    .where('cm.user_id', 'in', userIds)
    .groupBy('cm.user_id')
    .execute();

/** A message's stored columns, without its sender's: those come from the users module or the chat's members. */
const messageColumns = ['id', 'chat_id', 'sender_id', 'kind', 'client_id', 'body', 'created_at'] as const;

export const messageById = (db: Executor, id: number) =>
  db.selectFrom('messages').select(messageColumns).where('id', '=', id).executeTakeFirst();
export type StoredMessage = NonNullable<Awaited<ReturnType<typeof messageById>>>;

export const messageByClientId = (db: Executor, chatDbId: number, senderId: number, clientId: string) =>
  db
    .selectFrom('messages')
    .select(['id', 'chat_id'])
    .where('chat_id', '=', chatDbId)
    .where('sender_id', '=', senderId)
    .where('client_id', '=', clientId)
    .executeTakeFirst();

export type NewMessageRow = Omit<StoredMessage, 'id'>;

/**
 * Inserts many messages in one statement. A row whose (sender, chat, client_id) is already stored is skipped:
 * the answer holds only the inserted rows, in id order, which is the order given.
 */
export async function insertMessages(db: Executor, rows: NewMessageRow[]) {
  const inserted = await db
    .insertInto('messages')
    .values(rows)
    .onConflict((oc) => oc.columns(['sender_id', 'chat_id', 'client_id']).doNothing())
    .returning(['id', 'chat_id', 'sender_id', 'client_id'])
    .execute();
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

/** A page of a chat's messages, oldest first. */
export function messagesPage(
  db: Db,
  chatDbId: number,
  opts: { before?: number; after?: number; limit: number; clearedBefore: number },
) {
  let q = db
    .selectFrom('messages')
    .select(messageColumns)
    .where('chat_id', '=', chatDbId)
    .where('id', '>', opts.clearedBefore);
  if (opts.after !== undefined)
    return q.where('id', '>', opts.after).orderBy('id', 'asc').limit(opts.limit).execute();
  if (opts.before !== undefined) q = q.where('id', '<', opts.before);
  return q
    .orderBy('id', 'desc')
    .limit(opts.limit)
    .execute()
    .then((rows) => rows.reverse());
}
