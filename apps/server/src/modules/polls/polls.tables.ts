import type { ColumnType, Generated } from 'kysely';

// The polls module's tables (migration 0021-polls): a poll message's question and answers, and the votes.
export interface PollsTable {
  /** The message the poll is (one poll per message). */
  message_id: number;
  chat_id: number;
  /** Who asked: the message's sender, the one who may close it. */
  sender_id: number;
  question: string;
  /** The answers' texts as a JSON array; a vote names one by its index. */
  options: string;
  multiple: number;
  anonymous: number;
  /** When its author closed it; null while it is open. */
  closed_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One chosen answer of one person: a person's vote is one row per answer they chose. */
export interface PollVotesTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  option: number;
  voted_at: string;
}

export interface PollsTables {
  polls: PollsTable;
  poll_votes: PollVotesTable;
}
