import {
  type ChatDetail,
  type ChatMember,
  DELETED_DISPLAY_NAME,
  DELETED_USERNAME,
  displayNameOf,
  privateChatName,
} from '@parley/protocol';
import { avatarUrl } from '../accounts/user-view';
import type { ChatRow, MemberRow } from './chats.repo';

// How stored chats and members are shown (SPEC §3).

export function toMember(m: MemberRow, online: Set<number>): ChatMember {
  if (m.user_id === null || m.username === null) {
    return {
      id: null,
      username: DELETED_USERNAME,
      displayname: DELETED_DISPLAY_NAME,
      name: DELETED_DISPLAY_NAME,
      avatar: null,
      is_blue_verified: false,
      last_seen: null,
      is_online: false,
      role: m.role,
      profile: { name: DELETED_DISPLAY_NAME, avatar: null },
    };
  }
  const visible = !!m.online_status;
  const name = displayNameOf({ ...m, username: m.username });
  const avatar = avatarUrl(m.avatar);
  return {
    id: m.user_id,
    username: m.username,
    displayname: m.displayname || m.username,
    name,
    avatar,
    is_blue_verified: !!m.is_blue_verified,
    ...(m.is_bot ? { is_bot: true } : {}),
    last_seen: visible ? m.last_seen : null,
    is_online: visible && online.has(m.user_id),
    role: m.role,
    profile: { name, avatar },
  };
}

export function toDetail(chat: ChatRow, members: ChatMember[], viewerId: number): ChatDetail {
  const ordered = chat.is_private
    ? [...members.filter((m) => m.id !== viewerId), ...members.filter((m) => m.id === viewerId)]
    : members;
  const admin =
    members.find((m) => m.role === 'owner' && m.id !== null) ??
    members.find((m) => m.role === 'admin' && m.id !== null);
  const partner = chat.is_private ? ordered[0] : undefined;
  const chatAvatar = avatarUrl(chat.avatar);
  return {
    id: chat.id,
    chat_id: chat.chat_id,
    is_private: !!chat.is_private,
    group_name: chat.name,
    display_name: chat.is_private ? privateChatName(partner) : chat.name,
    description: chat.description,
    visibility: chat.visibility,
    posting: chat.posting,
    avatar: chat.is_private ? (partner?.avatar ?? null) : chatAvatar,
    chat_avatar: chatAvatar,
    members: ordered,
    admin: admin ? { id: admin.id as number, username: admin.username, profile: { name: admin.name } } : null,
  };
}
