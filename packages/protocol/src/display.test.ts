import { describe, expect, it } from 'vitest';
import {
  abbreviateCount,
  displayNameOf,
  joinedMonthYear,
  lastSeenText,
  memberNameOf,
  privateChatName,
} from './display';

// SPEC §4 display rules at their edges.
const NOW = new Date('2026-03-15T12:00:00Z');
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const ago = (ms: number) => new Date(NOW.getTime() - ms);

describe('lastSeenText', () => {
  it("says 'just now' under 60 s", () => {
    expect(lastSeenText(ago(0), NOW)).toBe('just now');
    expect(lastSeenText(ago(59 * SECOND), NOW)).toBe('just now');
    expect(lastSeenText(ago(59 * SECOND + 999), NOW)).toBe('just now');
  });

  it("says 'N min ago' from 60 s to under 1 h, rounded down", () => {
    expect(lastSeenText(ago(60 * SECOND), NOW)).toBe('1 min ago');
    expect(lastSeenText(ago(119 * SECOND), NOW)).toBe('1 min ago');
    expect(lastSeenText(ago(59 * MINUTE), NOW)).toBe('59 min ago');
    expect(lastSeenText(ago(60 * MINUTE - 1), NOW)).toBe('59 min ago');
  });

  it("says 'N hr ago' from 60 min to under 24 h, rounded down", () => {
    expect(lastSeenText(ago(60 * MINUTE), NOW)).toBe('1 hr ago');
    expect(lastSeenText(ago(90 * MINUTE), NOW)).toBe('1 hr ago');
    expect(lastSeenText(ago(23 * HOUR + 59 * MINUTE), NOW)).toBe('23 hr ago');
  });

  it('gives the full local date and time from 24 h on', () => {
    const at = ago(24 * HOUR);
    const full = at.toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(lastSeenText(at, NOW, 'en-US')).toBe(full);
    expect(full).toMatch(/2026/);
    expect(lastSeenText(at.toISOString(), NOW, 'en-US')).toBe(full);
  });

  it("treats a time slightly in the future (clock skew) as 'just now'", () => {
    expect(lastSeenText(new Date(NOW.getTime() + 5 * SECOND), NOW)).toBe('just now');
  });
});

describe('abbreviateCount', () => {
  it('shows counts up to 999 as they are', () => {
    expect(abbreviateCount(0)).toBe('0');
    expect(abbreviateCount(999)).toBe('999');
  });

  it("shows counts above 999 as the thousands rounded down and 'K+'", () => {
    expect(abbreviateCount(1000)).toBe('1K+');
    expect(abbreviateCount(1999)).toBe('1K+');
    expect(abbreviateCount(2000)).toBe('2K+');
    expect(abbreviateCount(1_000_000)).toBe('1000K+');
  });
});

describe('joinedMonthYear', () => {
  it('gives the long month and the year', () => {
    expect(joinedMonthYear('2025-11-20T10:00:00Z', 'en-US')).toBe('November 2025');
    expect(joinedMonthYear(new Date(2024, 0, 15), 'en-US')).toBe('January 2024');
  });
});

describe('displayNameOf', () => {
  it('prefers the full name, then the display name, then the username', () => {
    expect(
      displayNameOf({ first_name: 'Ada', last_name: 'Lovelace', displayname: 'ada', username: 'a' }),
    ).toBe('Ada Lovelace');
    expect(displayNameOf({ first_name: 'Ada', last_name: '', username: 'a' })).toBe('Ada');
    expect(displayNameOf({ first_name: ' ', last_name: '', displayname: 'Countess', username: 'a' })).toBe(
      'Countess',
    );
    expect(displayNameOf({ displayname: '  ', username: 'ada_l' })).toBe('ada_l');
  });
});

describe('memberNameOf and privateChatName', () => {
  it('names a member by the name the server gave, a deleted account as Deleted User', () => {
    expect(memberNameOf({ username: 'ada_l', name: 'Ada Lovelace' })).toBe('Ada Lovelace');
    expect(memberNameOf({ username: 'ada_l', name: ' ' })).toBe('ada_l');
    expect(memberNameOf({ username: 'deleted_user', name: '' })).toBe('Deleted User');
  });

  it('names a private chat after its other member, or Deleted User without one', () => {
    expect(privateChatName({ username: 'ada_l', name: 'Ada Lovelace' })).toBe('Ada Lovelace');
    expect(privateChatName({ username: 'deleted_user', name: 'Deleted User' })).toBe('Deleted User');
    expect(privateChatName(undefined)).toBe('Deleted User');
  });
});
