import type { ProfileListItem } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { matchPeople } from './search-people';

const person = (id: number, username: string, displayname: string): ProfileListItem => ({
  id,
  username,
  displayname,
  avatar: null,
  is_online: false,
  is_blue_verified: false,
});

const people = [
  person(1, 'ada', 'Ada Lovelace'),
  person(2, 'grace', 'Grace Hopper'),
  person(3, 'alan', 'Alan T'),
];

describe('matchPeople', () => {
  it('finds by username or display name, case-insensitive, leaving members out', () => {
    expect(matchPeople(people, 'HOP', new Set()).map((p) => p.id)).toEqual([2]);
    expect(matchPeople(people, '@a', new Set([1])).map((p) => p.id)).toEqual([2, 3]);
    expect(matchPeople(people, 'lovelace', new Set()).map((p) => p.id)).toEqual([1]);
  });

  it('finds nobody for a blank query and stops at the limit', () => {
    expect(matchPeople(people, '   ', new Set())).toEqual([]);
    expect(matchPeople(people, 'a', new Set(), 2)).toHaveLength(2);
  });
});
