import { describe, expect, it } from 'vitest';
import { initials } from './avatar';

describe('initials', () => {
  it('takes the first letter of the first two words, upper-cased', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('grace brewster murray hopper')).toBe('GB');
    expect(initials('  Alan   ')).toBe('A');
  });

  it("is '?' when there is nothing to take", () => {
    expect(initials('')).toBe('?');
    expect(initials('   ')).toBe('?');
  });
});
