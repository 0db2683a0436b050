import { describe, expect, it } from 'vitest';
import { reactorsText } from './message-parts';

describe('reactorsText', () => {
  const names = new Map([
    [2, 'Grace Hopper'],
    [3, 'Ada Lovelace'],
  ]);
  it("names who reacted from the chat's members, 'You' for oneself", () => {
    expect(reactorsText([2, 1, 3], { meId: 1, names })).toBe('Grace Hopper, You, Ada Lovelace');
  });
  it("says 'Someone' for a person no longer among the members", () => {
    expect(reactorsText([9], { meId: 1, names })).toBe('Someone');
  });
});
