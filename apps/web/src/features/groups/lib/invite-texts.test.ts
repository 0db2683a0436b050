import { describe, expect, it } from 'vitest';
import { inviteExpiryText, inviteUsesText, parseMaxUses } from './invite-texts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const later = (ms: number) => new Date(NOW + ms).toISOString();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('parseMaxUses', () => {
  it('reads nothing as no limit and a whole number within 1..1000 as itself', () => {
    expect(parseMaxUses('')).toBeNull();
    expect(parseMaxUses('  ')).toBeNull();
    expect(parseMaxUses('1')).toBe(1);
    expect(parseMaxUses(' 25 ')).toBe(25);
    expect(parseMaxUses('1000')).toBe(1000);
  });

  it('refuses anything else', () => {
    for (const typed of ['0', '1001', '2.5', '-3', 'ten', '1e3']) expect(parseMaxUses(typed)).toBeUndefined();
  });
});

describe('inviteUsesText', () => {
  it('counts the uses, against the limit when there is one', () => {
    expect(inviteUsesText({ uses: 0, max_uses: null })).toBe('0 uses');
    expect(inviteUsesText({ uses: 1, max_uses: null })).toBe('1 use');
    expect(inviteUsesText({ uses: 1, max_uses: 1 })).toBe('1 of 1 use');
    expect(inviteUsesText({ uses: 2, max_uses: 10 })).toBe('2 of 10 uses');
  });
});

describe('inviteExpiryText', () => {
  it('says how long a link has left, rounded up', () => {
    expect(inviteExpiryText(null, NOW)).toBe('Never expires');
    expect(inviteExpiryText(later(30 * 1000), NOW)).toBe('Expires in 1 minute');
    expect(inviteExpiryText(later(45 * MINUTE), NOW)).toBe('Expires in 45 minutes');
    expect(inviteExpiryText(later(HOUR), NOW)).toBe('Expires in 1 hour');
    expect(inviteExpiryText(later(24 * HOUR), NOW)).toBe('Expires in 24 hours');
    expect(inviteExpiryText(later(7 * 24 * HOUR), NOW)).toBe('Expires in 7 days');
    expect(inviteExpiryText(later(-MINUTE), NOW)).toBe('Expired');
  });
});
