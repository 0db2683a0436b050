import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates';

describe('profile dates', () => {
  it('formats a date and a date with time', () => {
    const at = new Date(2026, 2, 15, 12, 5);
    expect(formatDate(at.toISOString(), 'en-US')).toBe('March 15, 2026');
    expect(formatDateTime(at.toISOString(), 'en-US')).toBe(
      at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }),
    );
  });

  it('shows a dash for a missing or unreadable date', () => {
    expect(formatDate(null)).toBe('—');
    expect(formatDate('')).toBe('—');
    expect(formatDateTime('not a date')).toBe('—');
  });
});
