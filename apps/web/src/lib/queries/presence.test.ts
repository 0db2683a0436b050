import type { ChatDetail, ChatListItem, ChatMember, PublicProfile } from '@parley/protocol';
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { chatQueryKeys } from '../realtime/chat-socket-shared';
import {
  applyPresence,
  detailWithPresence,
  listWithPresence,
  type PresenceFrame,
  publicProfileQueryKey,
} from './presence';

const BEN = 7;
const item = (chat_id: string, other: number | null, is_online = false): ChatListItem =>
  ({
    chat_id,
    is_private: other !== null,
    other_user:
      other === null ? null : { id: other, username: `u${other}`, avatar: null, is_blue_verified: false },
    is_online,
    unread_count: 0,
  }) as ChatListItem;
const member = (id: number, is_online = false, last_seen: string | null = null) =>
  ({ id, is_online, last_seen }) as ChatMember;
const detail = (chat_id: string, members: ChatMember[]) => ({ chat_id, members }) as ChatDetail;
const online: PresenceFrame = { type: 'presence', user_id: BEN, is_online: true, last_seen: null };
const offline: PresenceFrame = { ...online, is_online: false, last_seen: '2030-01-01T10:00:00.000Z' };

describe('presence frames in the chat caches', () => {
  it("turn the person's private chat in the list online, and leave groups and others alone", () => {
    const list = [item('ben', BEN), item('group', null), item('cal', 8)];
    const next = listWithPresence(list, online);
    expect(next.map((c) => c.is_online)).toEqual([true, false, false]);
    expect(next[1]).toBe(list[1]);
    // Nothing to change: the same array, so nothing re-renders.
    expect(listWithPresence(next, online)).toBe(next);
  });

  it("set the member's online state and last seen in a chat's detail", () => {
    const chat = detail('g', [member(1), member(BEN, true)]);
    const next = detailWithPresence(chat, offline);
    expect(next.members[1]).toMatchObject({ id: BEN, is_online: false, last_seen: offline.last_seen });
    expect(next.members[0]).toBe(chat.members[0]);
    expect(detailWithPresence(next, offline)).toBe(next);
    const without = detail('h', [member(1)]);
    expect(detailWithPresence(without, online)).toBe(without);
  });

  it('reach the list and every cached detail at once', () => {
    const client = new QueryClient();
    client.setQueryData(chatQueryKeys.list(), [item('ben', BEN)]);
    client.setQueryData(chatQueryKeys.detail('ben'), detail('ben', [member(BEN), member(1)]));
    client.setQueryData(chatQueryKeys.detail('g'), detail('g', [member(1), member(BEN)]));
    client.setQueryData(chatQueryKeys.messages('ben'), []);
    applyPresence(client, online);
    expect(client.getQueryData<ChatListItem[]>(chatQueryKeys.list())?.[0]?.is_online).toBe(true);
    for (const id of ['ben', 'g'])
      expect(
        client.getQueryData<ChatDetail>(chatQueryKeys.detail(id))?.members.find((m) => m.id === BEN)
          ?.is_online,
      ).toBe(true);
    expect(client.getQueryData(chatQueryKeys.messages('ben'))).toEqual([]);
  });

  it("turn the person's profile page online and offline, with their last seen, and no one else's", () => {
    const client = new QueryClient();
    const profile = (id: number, username: string) =>
      ({ id, username, is_online: false, last_seen: null }) as PublicProfile;
    client.setQueryData(publicProfileQueryKey('ben'), profile(BEN, 'ben'));
    client.setQueryData(publicProfileQueryKey('cal'), profile(8, 'cal'));
    const cal = client.getQueryData(publicProfileQueryKey('cal'));
    const ben = () => client.getQueryData<PublicProfile>(publicProfileQueryKey('ben'));
    applyPresence(client, online);
    expect(ben()).toMatchObject({ is_online: true, last_seen: null });
    applyPresence(client, offline);
    expect(ben()).toMatchObject({ is_online: false, last_seen: offline.last_seen });
    expect(client.getQueryData(publicProfileQueryKey('cal'))).toBe(cal);
  });
});
