import { describe, expect, it } from 'vitest';
import { choiceAfter, pollSummary, votesText } from './poll-texts';

describe('poll texts', () => {
  it('says how the poll stands', () => {
    expect(pollSummary({ closed: false, anonymous: false, multiple: false, voter_count: 1 })).toBe(
      'Choose one · 1 voter',
    );
    expect(pollSummary({ closed: false, anonymous: true, multiple: true, voter_count: 3 })).toBe(
      'Choose any · Anonymous · 3 voters',
    );
    expect(pollSummary({ closed: true, anonymous: true, multiple: true, voter_count: 0 })).toBe(
      'Closed · Anonymous · 0 voters',
    );
    expect([votesText(1), votesText(2)]).toEqual(['1 vote', '2 votes']);
  });

  it('turns a click into the choices to send', () => {
    expect(choiceAfter({ multiple: false, my_votes: [] }, 2)).toEqual([2]);
    expect(choiceAfter({ multiple: false, my_votes: [1] }, 2)).toEqual([2]);
    expect(choiceAfter({ multiple: false, my_votes: [2] }, 2)).toEqual([]);
    expect(choiceAfter({ multiple: true, my_votes: [2] }, 0)).toEqual([0, 2]);
    expect(choiceAfter({ multiple: true, my_votes: [0, 2] }, 2)).toEqual([0]);
  });
});
