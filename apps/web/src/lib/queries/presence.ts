import type { ChatDetail, ChatListItem, NotificationFrame, PublicProfile } from '@parley/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { chatQueryKeys } from '../realtime/chat-socket-shared';

// Presence as every screen shows it: the chat list's green dots, a room's header, a chat's members and a
// person's profile page all read their query caches, and a `presence` frame from the notification channel writes
// into those caches. One source, so a person coming online turns green wherever they are shown, without a
// reload.

export type PresenceFrame = Extract<NotificationFrame, { type: 'presence' }>;

/** The chat list with the person's private chat showing them online or offline; the same array if unchanged. */
export function listWithPresence(chats: ChatListItem[], frame: PresenceFrame): ChatListItem[] {
  let changed = false;
  const next = chats.map((c) => {
    if (!c.is_private || c.other_user?.id !== frame.user_id || c.is_online === frame.is_online) return c;
    changed = true;
    return { ...c, is_online: frame.is_online };
  });
  return changed ? next : chats;
}

/** A chat's detail with the person, where a member, online or not and last seen as the frame says. */
export function detailWithPresence(chat: ChatDetail, frame: PresenceFrame): ChatDetail {
  const at = chat.members.findIndex((m) => m.id === frame.user_id);
  const member = chat.members[at];
  if (!member || (member.is_online === frame.is_online && member.last_seen === frame.last_seen)) return chat;
  const members = [...chat.members];
  members[at] = { ...member, is_online: frame.is_online, last_seen: frame.last_seen };
  return { ...chat, members };
}

/** A person's profile page with their online state and last seen as the frame says. */
export function profileWithPresence(profile: PublicProfile, frame: PresenceFrame): PublicProfile {
  if (profile.id !== frame.user_id) return profile;
  if (profile.is_online === frame.is_online && profile.last_seen === frame.last_seen) return profile;
  return { ...profile, is_online: frame.is_online, last_seen: frame.last_seen };
}

/** The public profiles' query keys, one per username (the profile feature reads them). */
export const publicProfileQueryKey = (username: string) => ['profile', 'user', username] as const;

const detailsKey = chatQueryKeys.detail('').slice(0, 2);
const profilesKey = publicProfileQueryKey('').slice(0, 2);

/** Writes a presence frame into the chat list, every chat's detail and every profile held in the cache. */
export function applyPresence(queryClient: QueryClient, frame: PresenceFrame): void {
  queryClient.setQueryData<ChatListItem[]>(chatQueryKeys.list(), (old) =>
    old ? listWithPresence(old, frame) : old,
  );
  queryClient.setQueriesData<ChatDetail>({ queryKey: detailsKey }, (old) =>
    old ? detailWithPresence(old, frame) : old,
  );
  queryClient.setQueriesData<PublicProfile>({ queryKey: profilesKey }, (old) =>
    old ? profileWithPresence(old, frame) : old,
  );
}
