import { describe, expect, it } from 'vitest';
import {
  bodyOrPoll,
  POLL_TEXT,
  pollFromInput,
  pollInputSchema,
  pollLine,
  pollShare,
  pollVoteSchema,
} from './polls';

const errorsOf = (input: unknown) => {
  const r = pollInputSchema.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};
const good = { question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: false, anonymous: false };

describe('pollInputSchema', () => {
  it('trims the question and options', () => {
    expect(pollInputSchema.parse({ ...good, question: ' Lunch? ', options: [' a', 'b '] })).toEqual({
      ...good,
      options: ['a', 'b'],
    });
  });

  it('says what is wrong', () => {
    expect(errorsOf({ ...good, question: '  ' })).toEqual([POLL_TEXT.questionRequired]);
    expect(errorsOf({ ...good, question: 'q'.repeat(301) })).toEqual([POLL_TEXT.questionTooLong]);
    expect(errorsOf({ ...good, options: ['one'] })).toEqual([POLL_TEXT.tooFewOptions]);
    expect(errorsOf({ ...good, options: Array.from({ length: 11 }, (_, i) => `o${i}`) })).toEqual([
      POLL_TEXT.tooManyOptions,
    ]);
    expect(errorsOf({ ...good, options: ['a', ''] })).toEqual([POLL_TEXT.optionRequired]);
    expect(errorsOf({ ...good, options: ['a', 'o'.repeat(101)] })).toEqual([POLL_TEXT.optionTooLong]);
    expect(errorsOf({ ...good, options: ['Yes', ' yes'] })).toEqual([POLL_TEXT.sameOptions]);
  });

  it('takes votes by index, at most ten', () => {
    expect(pollVoteSchema.safeParse({ options: [] }).success).toBe(true);
    expect(pollVoteSchema.safeParse({ options: [9] }).success).toBe(true);
    expect(pollVoteSchema.safeParse({ options: [10] }).success).toBe(false);
    expect(pollVoteSchema.safeParse({ options: [-1] }).success).toBe(false);
  });
});

describe('pollFromInput', () => {
  it('makes a poll nobody voted in yet, naming voters only when it is not anonymous', () => {
    expect(pollFromInput({ ...good, anonymous: true }).options).toEqual([
      { text: 'Pizza', votes: 0 },
      { text: 'Soup', votes: 0 },
    ]);
    expect(pollFromInput(good)).toMatchObject({
      options: [
        { text: 'Pizza', votes: 0, voters: [] },
        { text: 'Soup', votes: 0, voters: [] },
      ],
      my_votes: [],
      closed: false,
      voter_count: 0,
    });
  });
});

describe('poll texts', () => {
  it('stands for a poll in a line and works out shares', () => {
    expect(pollLine('Lunch?')).toBe('📊 Lunch?');
    expect(bodyOrPoll({ body: '', poll: { question: 'Lunch?' } })).toBe('📊 Lunch?');
    expect(bodyOrPoll({ body: 'Vote!', poll: { question: 'Lunch?' } })).toBe('Vote!');
    expect(bodyOrPoll({ body: '', poll: null })).toBe('');
    expect(pollShare(1, 3)).toBe(33);
    expect(pollShare(2, 3)).toBe(67);
    expect(pollShare(0, 0)).toBe(0);
  });
});
