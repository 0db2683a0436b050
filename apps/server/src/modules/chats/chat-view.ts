import {
  type ChatDetail,
  type ChatFile,
  type ChatMember,
  DELETED_DISPLAY_NAME,
  DELETED_USERNAME,
  type Message,
} from '@parley/protocol';
import { avatarUrl } from '../accounts/user-view';
import type { ChatRow, MemberRow, MessageRow } from './chats.repo';

// How stored chats, members and messages are shown (SPEC §3).
const fullName = (u: { first_name: string | null; last_name: string | null }) =>
  `${u.first_name ?? ''} ${u.last_name ?? ''}`.trim();

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
  const name = fullName(m) || m.displayname || m.username;
  const avatar = avatarUrl(m.avatar);
  return {
    id: m.user_id,
    username: m.username,
    displayname: m.displayname || m.username,
    name,
    avatar,
    is_blue_verified: !!m.is_blue_verified,
    last_seen: visible ? m.last_seen : null,
    is_online: visible && online.has(m.user_id),
    role: m.role,
    profile: { name, avatar },
  };
}

/** Read and delivery marks of a chat's members, to decide each message's ticks (DESIGN §1). */
export interface Marks {
  userId: number;
  lastRead: number;
  lastDelivered: number;
  readReceipt: boolean;
}
export const marksOf = (
  members: Pick<MemberRow, 'user_id' | 'last_read_id' | 'last_delivered_id' | 'read_receipt'>[],
): Marks[] =>
  members
    .filter((m) => m.user_id !== null)
    .map((m) => ({
      userId: m.user_id as number,
      lastRead: m.last_read_id,
      lastDelivered: m.last_delivered_id,
      readReceipt: !!m.read_receipt,
    }));

/** Read once every other member who reports reads has read it; delivered once any other member's client got it. */
export function ticks(messageId: number, senderId: number | null, marks: Marks[]) {
  const others = marks.filter((m) => m.userId !== senderId);
  const reporting = others.filter((m) => m.readReceipt);
  const isRead = reporting.length > 0 && reporting.every((m) => m.lastRead >= messageId);
  const isDelivered =
    isRead || others.some((m) => m.lastDelivered >= messageId || (m.readReceipt && m.lastRead >= messageId));
  return { is_read: isRead, is_delivered: isDelivered };
}

export function toMessage(row: MessageRow, chatId: string, marks: Marks[], files: ChatFile[] = []): Message {
  const senderName = row.username ? fullName(row) || row.displayname || row.username : '';
  return {
    id: row.id,
    sender: row.sender_id,
    sender_name: row.kind === 'system' ? '' : senderName,
    sender_username: row.username ?? (row.kind === 'system' ? '' : DELETED_USERNAME),
    sender_avatar: avatarUrl(row.avatar ?? null),
    body: row.body,
    files,
    ...ticks(row.id, row.sender_id, marks),
    is_sent: true,
    is_error: false,
    kind: row.kind,
    timestamp: row.created_at,
    chatroom: chatId,
    client_id: row.client_id,
  };
}

export function toDetail(chat: ChatRow, members: ChatMember[], viewerId: number): ChatDetail {
  const ordered = chat.is_private
    ? [...members.filter((m) => m.id !== viewerId), ...members.filter((m) => m.id === viewerId)]
    : members;
  const admin = members.find((m) => m.role === 'admin' && m.id !== null);
  const partner = chat.is_private ? ordered[0] : undefined;
  const chatAvatar = avatarUrl(chat.avatar);
  return {
    id: chat.id,
    chat_id: chat.chat_id,
    is_private: !!chat.is_private,
    group_name: chat.name,
    display_name: chat.is_private ? (partner?.name ?? DELETED_DISPLAY_NAME) : chat.name,
    description: chat.description,
    avatar: chat.is_private ? (partner?.avatar ?? null) : chatAvatar,
    chat_avatar: chatAvatar,
    members: ordered,
    admin: admin ? { id: admin.id as number, username: admin.username, profile: { name: admin.name } } : null,
  };
}
