import type { Poll } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { pollFrames } from './poll-frames';

const poll: Poll = {
  question: 'Lunch?',
  options: [
    { text: 'Pizza', votes: 2 },
    { text: 'Soup', votes: 2 },
  ],
  multiple: true,
  anonymous: true,
  my_votes: [],
  closed: false,
  voter_count: 3,
};

describe('pollFrames', () => {
  it('makes one frame per distinct set of choices, each for the voters who made it', () => {
    const { frame, variants } = pollFrames({
      chatId: 'c',
      messageId: 9,
      poll,
      choices: [
        { userId: 1, options: [0] },
        { userId: 2, options: [0, 1] },
        { userId: 3, options: [0] },
        { userId: 4, options: [1] },
      ],
    });
    expect(frame).toEqual({ type: 'poll_updated', message_id: 9, poll });
    expect(variants.map((v) => [v.frame.poll.my_votes, v.userIds])).toEqual([
      [[0], [1, 3]],
      [[0, 1], [2]],
      [[1], [4]],
    ]);
    // Every frame tells only counts and the reader's own choices.
    for (const v of variants) expect(v.frame.poll.options).toEqual(poll.options);
  });

  it('makes no variant for someone whose vote was taken back', () => {
    const { variants } = pollFrames({
      chatId: 'c',
      messageId: 9,
      poll,
      choices: [{ userId: 1, options: [] }],
    });
    expect(variants).toEqual([]);
  });
});
