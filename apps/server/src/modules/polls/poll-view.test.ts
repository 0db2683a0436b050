import { describe, expect, it } from 'vitest';
import { choicesIn, optionsOf, pollOf, sameChoices } from './poll-view';
import type { PollRow } from './polls.repo';

const row = (o: Partial<PollRow> = {}): PollRow => ({
  message_id: 9,
  chat_id: 1,
  sender_id: 1,
  question: 'Lunch?',
  options: JSON.stringify(['Pizza', 'Soup', 'Salad']),
  multiple: 1,
  anonymous: 0,
  closed_at: null,
  ...o,
});
const votes = [
  { user_id: 5, option: 2 },
  { user_id: 6, option: 0 },
  { user_id: 5, option: 0 },
  { user_id: 7, option: 2 },
];

describe('pollOf', () => {
  it('counts each option, lists its voters in vote order and the reader’s own choices', () => {
    expect(pollOf(row(), votes, 5)).toEqual({
      question: 'Lunch?',
      options: [
        { text: 'Pizza', votes: 2, voters: [6, 5] },
        { text: 'Soup', votes: 0, voters: [] },
        { text: 'Salad', votes: 2, voters: [5, 7] },
      ],
      multiple: true,
      anonymous: false,
      my_votes: [0, 2],
      closed: false,
      voter_count: 3,
    });
  });

  it('names nobody in an anonymous poll, and nobody’s choices for reader 0', () => {
    const poll = pollOf(row({ anonymous: 1, closed_at: '2026-01-01T00:00:00.000Z' }), votes, 0);
    expect(poll.options).toEqual([
      { text: 'Pizza', votes: 2 },
      { text: 'Soup', votes: 0 },
      { text: 'Salad', votes: 2 },
    ]);
    expect(poll).toMatchObject({ my_votes: [], closed: true, voter_count: 3 });
    expect(JSON.stringify(poll)).not.toContain('voters');
  });

  it('ignores a vote for an option the poll does not have', () => {
    expect(pollOf(row(), [{ user_id: 5, option: 7 }], 5)).toMatchObject({ my_votes: [], voter_count: 0 });
  });
});

describe('the rest of the view', () => {
  it('groups choices per voter in first-vote order', () => {
    expect(choicesIn(votes)).toEqual([
      { userId: 5, options: [0, 2] },
      { userId: 6, options: [0] },
      { userId: 7, options: [2] },
    ]);
  });

  it('reads stored options defensively and compares choices', () => {
    expect(optionsOf('not json')).toEqual([]);
    expect(sameChoices([0, 2], [0, 2])).toBe(true);
    expect(sameChoices([0], [0, 2])).toBe(false);
  });
});
