import { type ChatFile, DELETED_USERNAME, displayNameOf, type Message } from '@parley/protocol';
import { avatarUrl } from '../accounts/user-view';
import type { StoredMessage } from './messages.repo';

// The one place stored rows become a Message (SPEC §3), and the rule for its ticks (DESIGN §1).

/** What a message shows of its sender; absent for a system line or a deleted account. */
export interface Sender {
  username: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
}

/** Read and delivery marks of a chat's members, to decide each message's ticks (DESIGN §1). */
export interface Marks {
  userId: number;
  lastRead: number;
  lastDelivered: number;
  readReceipt: boolean;
}

export const marksOf = (
  members: {
    user_id: number | null;
    last_read_id: number;
    last_delivered_id: number;
    read_receipt: number | null;
  }[],
): Marks[] =>
  members.flatMap((m) =>
    m.user_id === null
      ? []
      : [
          {
            userId: m.user_id,
            lastRead: m.last_read_id,
            lastDelivered: m.last_delivered_id,
            readReceipt: !!m.read_receipt,
          },
        ],
  );

/** Read once every other member who reports reads has read it; delivered once any other member's client got it. */
export function ticks(messageId: number, senderId: number | null, marks: Marks[]) {
  const others = marks.filter((m) => m.userId !== senderId);
  const reporting = others.filter((m) => m.readReceipt);
  const isRead = reporting.length > 0 && reporting.every((m) => m.lastRead >= messageId);
  const isDelivered =
    isRead || others.some((m) => m.lastDelivered >= messageId || (m.readReceipt && m.lastRead >= messageId));
  return { is_read: isRead, is_delivered: isDelivered };
}

export function toMessage(
  row: StoredMessage,
  chatId: string,
  sender: Sender | undefined,
  marks: Marks[],
  files: ChatFile[] = [],
): Message {
  const system = row.kind === 'system';
  return {
    id: row.id,
    sender: row.sender_id,
    sender_name: system || !sender ? '' : displayNameOf(sender),
    sender_username: sender?.username ?? (system ? '' : DELETED_USERNAME),
    sender_avatar: avatarUrl(sender?.avatar ?? null),
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
