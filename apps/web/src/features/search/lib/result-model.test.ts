import type { ChatListItem, MessageSearchResult, ProfileListItem } from '@parley/protocol';
import { describe, expect, it } from 'vitest';
import { buildGroups, flattenGroups, keepActive, moveActive } from './result-model';

const person = (id: number, username: string, displayname: string): ProfileListItem => ({
  id,
  username,
  displayname,
  avatar: null,
  is_online: false,
  is_blue_verified: false,
});

const chat = (chat_id: string, display_name: string, is_private = true): ChatListItem => ({
  id: 1,
  chat_id,
  is_private,
  display_name,
  avatar: null,
  other_user: null,
  is_online: false,
  member_count: 2,
  last_message: null,
  last_message_time: null,
  is_admin: false,
  unread_count: 0,
});

const hit = (id: number, body: string, highlights: [number, number][]): MessageSearchResult => ({
  message: {
    id,
    sender: 1,
    sender_name: 'Ada',
    sender_username: 'ada',
    sender_avatar: null,
    body,
    files: [],
    is_read: true,
    is_delivered: true,
    is_sent: true,
    is_error: false,
    kind: 'user',
    timestamp: '2026-11-25T05:00:00.000Z',
    chatroom: 'c1',
    edited_at: null,
    is_deleted: false,
    reply_to: null,
    reactions: [],
    mentions: [],
  },
  chat: { chat_id: 'c1', is_private: true, display_name: 'Ada', avatar: null },
  highlights,
});

const chats = [chat('c1', 'Ada Lovelace'), chat('g1', 'Café crew', false), chat('c2', 'Grace Hopper')];

describe('buildGroups', () => {
  it('groups people, chats filtered by name, and messages ending with More results', () => {
    const groups = buildGroups({
      query: 'ca',
      people: [person(7, 'carl', 'Carl Sagan')],
      chats,
      messages: [hit(10, 'the café', [[4, 8]])],
      moreMessages: true,
    });
    expect(groups.map((g) => [g.label, g.options.map((o) => o.key)])).toEqual([
      ['browse.search.people', ['person-7']],
      ['browse.search.chats', ['chat-g1']],
      ['browse.search.messages', ['message-10', 'more']],
    ]);
    expect(groups[0]?.options[0]).toMatchObject({ name: 'Carl Sagan', highlights: [[0, 4]] });
    expect(groups[1]?.options[0]).toMatchObject({ highlights: [[0, 4]] });
  });

  it('leaves out empty groups; a blank query lists the newest chats only', () => {
    expect(buildGroups({ query: 'zz', people: [], chats, messages: [], moreMessages: false })).toEqual([]);
    const blank = buildGroups({
      query: ' ',
      people: [person(7, 'carl', 'Carl')],
      chats,
      messages: [hit(10, 'x', [])],
      moreMessages: true,
    });
    expect(blank.map((g) => g.label)).toEqual(['browse.search.recentChats']);
    expect(blank[0]?.options).toHaveLength(3);
  });

  it('shows at most five people and five chats', () => {
    const many = Array.from({ length: 8 }, (_, i) => person(i, `ann${i}`, `Ann ${i}`));
    const manyChats = Array.from({ length: 8 }, (_, i) => chat(`c${i}`, `Ann ${i}`));
    const groups = buildGroups({
      query: 'ann',
      people: many,
      chats: manyChats,
      messages: [],
      moreMessages: false,
    });
    expect(groups.map((g) => g.options.length)).toEqual([5, 5]);
  });
});

describe('keyboard model', () => {
  it('moves down and up across groups as one list, wrapping at the ends', () => {
    const groups = buildGroups({
      query: 'a',
      people: [person(7, 'ada', 'Ada')],
      chats,
      messages: [hit(10, 'a', [[0, 1]])],
      moreMessages: false,
    });
    const keys = flattenGroups(groups).map((o) => o.key);
    expect(keys).toEqual(['person-7', 'chat-c1', 'message-10']);
    expect(moveActive(0, 'ArrowDown', 3)).toBe(1);
    expect(moveActive(1, 'ArrowDown', 3)).toBe(2);
    expect(moveActive(2, 'ArrowDown', 3)).toBe(0);
    expect(moveActive(0, 'ArrowUp', 3)).toBe(2);
    expect(moveActive(-1, 'ArrowDown', 3)).toBe(0);
    expect(moveActive(-1, 'ArrowUp', 3)).toBe(2);
    expect(moveActive(0, 'ArrowDown', 0)).toBe(-1);
  });

  it('keeps the active option while it is still listed, else takes the first', () => {
    const options = [{ key: 'a' }, { key: 'b' }];
    expect(keepActive(options, 'b')).toBe('b');
    expect(keepActive(options, 'gone')).toBe('a');
    expect(keepActive([], 'a')).toBeNull();
  });
});
