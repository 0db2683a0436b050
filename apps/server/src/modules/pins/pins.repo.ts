import { sql, type Transaction } from 'kysely';
import type { Db, DialectName } from '../../db/database';
import type { Database } from '../../db/schema';

// The pins table's statements. A chat's pins are read newest first (by id, the order they were pinned in).
type Executor = Db | Transaction<Database>;

/** The ids of a chat's pinned messages, newest pin first. */
export async function pinnedIds(db: Executor, chatDbId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('pins')
    .select('message_id')
    .where('chat_id', '=', chatDbId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => r.message_id);
}

/** 'pins': the first key of the transaction lock a chat's pins are added under (the chat's id is the second). */
const PINS_LOCK = 0x70696e73;

/**
 * Makes two transactions adding pins to one chat take turns, so the count each checks after its insert counts
 * the other's. PostgreSQL only: on SQLite a transaction that has written holds the one write lock already.
 */
export async function lockChatPins(trx: Executor, dialect: DialectName, chatDbId: number): Promise<void> {
  if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${PINS_LOCK}, ${chatDbId})`.execute(trx);
}

/** Pins a message; false when it was pinned already. */
export async function addPin(
  trx: Executor,
  pin: { chat_id: number; message_id: number; pinned_by: number; pinned_at: string },
): Promise<boolean> {
  const added = await trx
    .insertInto('pins')
    .values(pin)
    .onConflict((oc) => oc.column('message_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return added !== undefined;
}

export async function pinCount(trx: Executor, chatDbId: number): Promise<number> {
  const row = await trx
    .selectFrom('pins')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('chat_id', '=', chatDbId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Unpins a message of this chat; false when it was not pinned. */
export async function removePin(db: Executor, chatDbId: number, messageId: number): Promise<boolean> {
  const removed = await db
    .deleteFrom('pins')
    .where('chat_id', '=', chatDbId)
    .where('message_id', '=', messageId)
    .executeTakeFirst();
  return Number(removed.numDeletedRows) > 0;
}

/** Unpins a message wherever it is pinned; the chat (row id) it was pinned in, if it was. */
export async function unpinMessage(db: Executor, messageId: number): Promise<number | undefined> {
  const row = await db
    .deleteFrom('pins')
    .where('message_id', '=', messageId)
    .returning('chat_id')
    .executeTakeFirst();
  return row?.chat_id;
}

/**
 * The chats (db id and public id) whose pins go with a person's account: pins of their messages and pins they
 * made. Read before the account's rows go (its cascade takes the pins).
 */
export const chatsWithPinsOf = (db: Executor, userId: number) =>
  db
    .selectFrom('pins')
    .innerJoin('messages', 'messages.id', 'pins.message_id')
    .innerJoin('chats', 'chats.id', 'pins.chat_id')
    .select(['chats.id', 'chats.chat_id'])
    .where((eb) => eb.or([eb('messages.sender_id', '=', userId), eb('pins.pinned_by', '=', userId)]))
    .distinct()
    .execute();
