import {
  type ChatFile,
  DELETED_USERNAME,
  displayNameOf,
  type Message,
  REPLY_QUOTE_LENGTH,
  type Reaction,
  type ReplyQuote,
} from '@parley/protocol';
import { avatarUrl } from '../accounts/user-view';
import type { ReactionRow, StoredMessage } from './messages.repo';

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

/** What a message shows besides its own row: the quote it answers and its reactions. */
export interface MessageExtras {
  replyTo: ReplyQuote | null;
  reactions: Reaction[];
}
const NO_EXTRAS: MessageExtras = { replyTo: null, reactions: [] };

/** The stored mention list (a JSON array of user ids). */
const mentionsOf = (json: string): number[] => {
  if (json === '[]') return [];
  try {
    const ids = JSON.parse(json) as unknown;
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
};

export function toMessage(
  row: Omit<StoredMessage, 'reaction_count'>,
  chatId: string,
  sender: Sender | undefined,
  marks: Marks[],
  files: ChatFile[] = [],
  extras: MessageExtras = NO_EXTRAS,
): Message {
  const system = row.kind === 'system';
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    sender: row.sender_id,
    sender_name: system || !sender ? '' : displayNameOf(sender),
    sender_username: sender?.username ?? (system ? '' : DELETED_USERNAME),
    sender_avatar: avatarUrl(sender?.avatar ?? null),
    body: deleted ? '' : row.body,
    files: deleted ? [] : files,
    ...ticks(row.id, row.sender_id, marks),
    is_sent: true,
    is_error: false,
    kind: row.kind,
    timestamp: row.created_at,
    chatroom: chatId,
    client_id: row.client_id,
    edited_at: row.edited_at,
    is_deleted: deleted,
    reply_to: extras.replyTo,
    reactions: deleted ? [] : extras.reactions,
    mentions: deleted ? [] : mentionsOf(row.mentions),
  };
}

/** A reply's quote of the message it answers: the start of its text, or nothing once it was deleted. */
export function toQuote(
  quoted: Pick<StoredMessage, 'id' | 'body' | 'deleted_at' | 'kind'>,
  sender: Sender | undefined,
): ReplyQuote {
  const deleted = quoted.deleted_at !== null;
  return {
    id: quoted.id,
    sender_name: quoted.kind === 'system' || !sender ? '' : displayNameOf(sender),
    body: deleted ? '' : [...quoted.body].slice(0, REPLY_QUOTE_LENGTH).join(''),
    is_deleted: deleted,
  };
}

/** Reactions per message, each emoji in the order it was first used; `me` for the reader (0: nobody). */
export function reactionsByMessage(rows: ReactionRow[], viewerId: number): Map<number, Reaction[]> {
  const byMessage = new Map<number, Map<string, Reaction>>();
  for (const r of rows) {
    const emojis = byMessage.get(r.message_id) ?? new Map<string, Reaction>();
    byMessage.set(r.message_id, emojis);
    const reaction = emojis.get(r.emoji) ?? { emoji: r.emoji, count: 0, me: false, user_ids: [] };
    emojis.set(r.emoji, reaction);
    reaction.count += 1;
    reaction.user_ids.push(r.user_id);
    if (r.user_id === viewerId) reaction.me = true;
  }
  return new Map([...byMessage].map(([id, emojis]) => [id, [...emojis.values()]]));
}
