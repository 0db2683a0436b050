import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

// The polls module's SQL: polls written with their message, read for the messages a page shows, and votes.
type Executor = Db | Transaction<Database>;

export interface NewPollRow {
  message_id: number;
  chat_id: number;
  sender_id: number;
  question: string;
  options: string;
  multiple: number;
  anonymous: number;
}

/** The polls of a batch of new messages, in one statement. */
export async function insertPolls(trx: Executor, rows: NewPollRow[]): Promise<void> {
  if (rows.length > 0) await trx.insertInto('polls').values(rows).execute();
}

const pollColumns = [
  'message_id',
  'chat_id',
  'sender_id',
  'question',
  'options',
  'multiple',
  'anonymous',
  'closed_at',
] as const;

/** The polls of these messages. */
export const pollsOf = (db: Executor, messageIds: number[]) =>
  messageIds.length === 0
    ? Promise.resolve([])
    : db.selectFrom('polls').select(pollColumns).where('message_id', 'in', messageIds).execute();
export type PollRow = Awaited<ReturnType<typeof pollsOf>>[number];

/** Every vote on these polls, oldest first. */
export const votesOf = (db: Executor, messageIds: number[]) =>
  messageIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('poll_votes')
        .select(['message_id', 'user_id', 'option'])
        .where('message_id', 'in', messageIds)
        .orderBy('id')
        .execute();
export type VoteRow = Awaited<ReturnType<typeof votesOf>>[number];

/**
 * A poll read for a change inside `trx`, its row locked until the transaction ends (a no-op UPDATE, which locks
 * in PostgreSQL and SQLite alike): one person's votes, another's and its closing run one after another, so a
 * vote never lands on a poll closed meanwhile.
 */
export const lockedPoll = (trx: Transaction<Database>, messageId: number) =>
  trx
    .updateTable('polls')
    .set((eb) => ({ closed_at: eb.ref('closed_at') }))
    .where('message_id', '=', messageId)
    .returning(pollColumns)
    .executeTakeFirst();

/** The answers one person chose, in order. */
export async function choicesOf(trx: Executor, messageId: number, userId: number): Promise<number[]> {
  const rows = await trx
    .selectFrom('poll_votes')
    .select('option')
    .where('message_id', '=', messageId)
    .where('user_id', '=', userId)
    .orderBy('option')
    .execute();
  return rows.map((r) => r.option);
}

/** Replaces one person's choices (none: their vote is taken back). */
export async function replaceChoices(
  trx: Executor,
  vote: { messageId: number; userId: number; options: number[]; at: string },
): Promise<void> {
  await trx
    .deleteFrom('poll_votes')
    .where('message_id', '=', vote.messageId)
    .where('user_id', '=', vote.userId)
    .execute();
  if (vote.options.length === 0) return;
  await trx
    .insertInto('poll_votes')
    .values(
      vote.options.map((option) => ({
        message_id: vote.messageId,
        user_id: vote.userId,
        option,
        voted_at: vote.at,
      })),
    )
    .execute();
}

export async function closePoll(trx: Executor, messageId: number, at: string): Promise<void> {
  await trx.updateTable('polls').set({ closed_at: at }).where('message_id', '=', messageId).execute();
}

/** Drops a message's poll and its votes (the message was deleted for everyone). */
export async function deletePoll(trx: Executor, messageId: number): Promise<void> {
  await trx.deleteFrom('polls').where('message_id', '=', messageId).execute();
}
