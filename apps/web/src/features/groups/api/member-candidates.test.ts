import type { ProfileListItem } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { memberCandidates } from './member-candidates';

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

describe('memberCandidates', () => {
  it('leaves the members out, in the search order', () => {
    expect(memberCandidates(people, new Set([1])).map((p) => p.id)).toEqual([2, 3]);
    expect(memberCandidates(people, new Set()).map((p) => p.id)).toEqual([1, 2, 3]);
    expect(memberCandidates(people, new Set([1, 2, 3]))).toEqual([]);
  });

  it('stops at the limit', () => {
    expect(memberCandidates(people, new Set(), 2).map((p) => p.id)).toEqual([1, 2]);
  });
});
