import type { Poll, PollInput } from '@parley/protocol';
import type { PollRow, VoteRow } from './polls.repo';

// The one place stored polls and votes become a Poll. An anonymous poll's Poll never names anyone: only counts,
// and the reader's own choices.

/** The stored answers (a JSON array of texts). */
export const optionsOf = (json: string): string[] => {
  try {
    const texts = JSON.parse(json) as unknown;
    return Array.isArray(texts) ? texts.map(String) : [];
  } catch {
    return [];
  }
};

/** One person's choices in a poll, answers in order. */
export interface Choice {
  userId: number;
  options: number[];
}

/** Each voter's choices, voters in the order of their first vote (a vote row's id), answers in order. */
export function choicesIn(votes: Pick<VoteRow, 'user_id' | 'option'>[]): Choice[] {
  const byUser = new Map<number, number[]>();
  for (const v of votes) {
    const options = byUser.get(v.user_id) ?? [];
    options.push(v.option);
    byUser.set(v.user_id, options);
  }
  return [...byUser].map(([userId, options]) => ({ userId, options: options.sort((a, b) => a - b) }));
}

/** A poll as `viewerId` sees it (0: nobody's own choices, as a room frame before it is made anyone's). */
export function pollOf(row: PollRow, votes: Pick<VoteRow, 'user_id' | 'option'>[], viewerId: number): Poll {
  const anonymous = !!row.anonymous;
  const options = optionsOf(row.options).map((text) => ({ text, votes: 0, voters: [] as number[] }));
  const voters = new Set<number>();
  const mine: number[] = [];
  for (const v of votes) {
    const option = options[v.option];
    if (!option) continue;
    option.votes += 1;
    option.voters.push(v.user_id);
    voters.add(v.user_id);
    if (v.user_id === viewerId && viewerId > 0) mine.push(v.option);
  }
  return {
    question: row.question,
    options: options.map((o) => (anonymous ? { text: o.text, votes: o.votes } : o)),
    multiple: !!row.multiple,
    anonymous,
    my_votes: mine.sort((a, b) => a - b),
    closed: row.closed_at !== null,
    voter_count: voters.size,
  };
}

/** The poll as its author asked it (a forwarded copy asks it again). */
export const inputOf = (row: PollRow): PollInput => ({
  question: row.question,
  options: optionsOf(row.options),
  multiple: !!row.multiple,
  anonymous: !!row.anonymous,
});

/** The same answers (both in order). */
export const sameChoices = (a: number[], b: number[]): boolean =>
  a.length === b.length && a.every((o, i) => o === b[i]);
