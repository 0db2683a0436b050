import type { ChatMember } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { insertMention, mentionQuery, splitMentions, suggestMembers } from './mentions';

const members = new Map([
  ['ada', 'Ada'],
  ['grace.h', 'grace.h'],
]);

describe('splitMentions', () => {
  it('links members named with @username, in any case, and keeps the rest as text', () => {
    expect(splitMentions('hi @ada and @GRACE.H.', members)).toEqual([
      { kind: 'text', text: 'hi ' },
      { kind: 'mention', text: '@ada', username: 'Ada' },
      { kind: 'text', text: ' and ' },
      { kind: 'mention', text: '@GRACE.H', username: 'grace.h' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('leaves addresses, strangers and bodies without mentions alone', () => {
    expect(splitMentions('mail ada@example.com or @bob', members)).toEqual([
      { kind: 'text', text: 'mail ada@example.com or @bob' },
    ]);
    expect(splitMentions('@ada', new Map())).toEqual([{ kind: 'text', text: '@ada' }]);
    expect(splitMentions('@ada', members)).toEqual([{ kind: 'mention', text: '@ada', username: 'Ada' }]);
  });
});

describe('mentionQuery', () => {
  it('finds the @name being typed before the caret', () => {
    expect(mentionQuery('hello @gr', 9)).toEqual({ start: 6, query: 'gr' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('hello @gr there', 15)).toBeNull();
    expect(mentionQuery('me@gr', 5)).toBeNull();
  });
});

const member = (id: number | null, username: string, displayname: string): ChatMember =>
  ({ id, username, displayname, name: displayname, avatar: null }) as ChatMember;

describe('suggestMembers', () => {
  const all = [
    member(1, 'me', 'Me Myself'),
    member(2, 'grace', 'Grace Hopper'),
    member(3, 'ada', 'Ada Lovelace'),
    member(null, 'deleted_user', 'Deleted User'),
  ];
  it('matches the start of the username or of a word of the name, never oneself or a deleted account', () => {
    expect(suggestMembers(all, 'g', 1).map((c) => c.username)).toEqual(['grace']);
    expect(suggestMembers(all, 'LOVE', 1).map((c) => c.username)).toEqual(['ada']);
    expect(suggestMembers(all, '', 1).map((c) => c.username)).toEqual(['grace', 'ada']);
    expect(suggestMembers(all, 'me', 1)).toEqual([]);
    expect(suggestMembers(all, '', 1, 1)).toHaveLength(1);
  });
});

describe('insertMention', () => {
  it('replaces the typed name with the username and a space', () => {
    expect(insertMention('hi @gr', { start: 3, query: 'gr' }, 'grace')).toEqual({
      text: 'hi @grace ',
      caret: 10,
    });
    expect(insertMention('hi @gr there', { start: 3, query: 'gr' }, 'grace')).toEqual({
      text: 'hi @grace there',
      caret: 10,
    });
  });
});
