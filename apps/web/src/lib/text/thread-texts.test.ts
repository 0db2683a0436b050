import { describe, expect, it } from 'vitest';
import { lastReplyText, replyCountText } from './thread-texts';
import { timeOf } from './time-format';

describe('thread texts', () => {
  it('counts replies in the singular and the plural', () => {
    expect(replyCountText(1)).toBe('1 reply');
    expect(replyCountText(2)).toBe('2 replies');
  });

  it('says when the last reply came: a time today or yesterday, a date before', () => {
    const now = new Date(2026, 4, 10, 18, 0);
    const today = new Date(2026, 4, 10, 14, 3).toISOString();
    const yesterday = new Date(2026, 4, 9, 9, 12).toISOString();
    expect(lastReplyText(today, now)).toBe(`Last reply at ${timeOf(today)}`);
    expect(lastReplyText(yesterday, now)).toBe(`Last reply yesterday at ${timeOf(yesterday)}`);
    expect(lastReplyText(new Date(2026, 0, 3, 9).toISOString(), now)).toMatch(/^Last reply \w/);
  });
});
