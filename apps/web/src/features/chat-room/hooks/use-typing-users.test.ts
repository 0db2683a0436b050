import { describe, expect, it } from 'vitest';
import { typingText } from './use-typing-users';

describe('typingText', () => {
  it("reads 'X is typing...' and stays short for more people", () => {
    expect(typingText([])).toBeNull();
    expect(typingText([{ user_id: 1, username: 'Ada' }])).toBe('Ada is typing...');
    expect(
      typingText([
        { user_id: 1, username: 'Ada' },
        { user_id: 2, username: 'Grace' },
      ]),
    ).toBe('Ada and Grace are typing...');
    expect(
      typingText([
        { user_id: 1, username: 'Ada' },
        { user_id: 2, username: 'Grace' },
        { user_id: 3, username: 'Alan' },
      ]),
    ).toBe('Several people are typing...');
  });
});
