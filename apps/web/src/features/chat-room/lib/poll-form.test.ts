import { POLL_TEXT } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { canAddOption, canRemoveOption, checkPoll, emptyPollDraft } from './poll-form';

describe('the poll form', () => {
  it('starts with two empty options and says what each empty field needs', () => {
    const draft = emptyPollDraft();
    expect(draft.options).toEqual(['', '']);
    expect(checkPoll(draft)).toEqual({
      errors: {
        question: POLL_TEXT.questionRequired,
        options: [POLL_TEXT.optionRequired, POLL_TEXT.optionRequired],
        list: null,
      },
    });
    expect(canRemoveOption(draft)).toBe(false);
  });

  it('gives the poll to send, trimmed', () => {
    const draft = { ...emptyPollDraft(), question: ' Lunch? ', options: ['Pizza ', 'Soup'], anonymous: true };
    expect(checkPoll(draft)).toEqual({
      poll: { question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: false, anonymous: true },
    });
  });

  it('says when options repeat, and stops adding at ten', () => {
    const same = { ...emptyPollDraft(), question: 'Q', options: ['Yes', 'yes'] };
    expect(checkPoll(same)).toMatchObject({ errors: { list: POLL_TEXT.sameOptions } });
    const full = { ...emptyPollDraft(), options: Array.from({ length: 10 }, (_, i) => `o${i}`) };
    expect(canAddOption(full)).toBe(false);
    expect(canRemoveOption(full)).toBe(true);
  });
});
