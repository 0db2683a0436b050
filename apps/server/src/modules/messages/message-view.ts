import {
  bodyOrPoll,
  type ChatFile,
  DELETED_USERNAME,
  displayNameOf,
  type LinkPreview,
  type Message,
  type Poll,
  REPLY_QUOTE_LENGTH,
  type Reaction,
  type ReplyQuote,
  type ThreadSummary,
} from '@parley/protocol';
import { avatarUrl } from '../accounts/user-view';
import type { LaterColumns, ReactionRow, StoredMessage } from './messages.repo';

// The one place stored rows become a Message (SPEC §3), and the rule for its ticks (DESIGN §1).

/** What a message shows of its sender; absent for a system line or a deleted account. */
export interface Sender {
  username: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
  /** 1 for a bot (accounts' users.is_bot). */
  is_bot?: number;
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

export interface Ticks {
  is_read: boolean;
  is_delivered: boolean;
}

/**
 * The ticks rule for many messages of one chat. A message is read once every other member who reports reads
 * has read it, delivered once any other member's client got it (a reported read counts as delivered). Both are
 * thresholds on the id that depend only on the sender, so each sender's are worked out once, not per message.
 */
export function tickRule(marks: Marks[]): (messageId: number, senderId: number | null) => Ticks {
  const bySender = new Map<number | null, { readUpTo: number; deliveredUpTo: number }>();
  const thresholds = (senderId: number | null) => {
    let readUpTo = Number.POSITIVE_INFINITY;
    let deliveredUpTo = Number.NEGATIVE_INFINITY;
    let reporting = 0;
    for (const m of marks) {
      if (m.userId === senderId) continue;
      if (m.readReceipt) {
        reporting += 1;
        readUpTo = Math.min(readUpTo, m.lastRead);
        deliveredUpTo = Math.max(deliveredUpTo, m.lastRead);
      }
      deliveredUpTo = Math.max(deliveredUpTo, m.lastDelivered);
    }
    return { readUpTo: reporting > 0 ? readUpTo : Number.NEGATIVE_INFINITY, deliveredUpTo };
  };
  return (messageId, senderId) => {
    let t = bySender.get(senderId);
    if (!t) {
      t = thresholds(senderId);
      bySender.set(senderId, t);
    }
    const isRead = messageId <= t.readUpTo;
    return { is_read: isRead, is_delivered: isRead || messageId <= t.deliveredUpTo };
  };
}

/** One message's ticks (see tickRule). */
export const ticks = (messageId: number, senderId: number | null, marks: Marks[]): Ticks =>
  tickRule(marks)(messageId, senderId);

/**
 * What a message shows besides its own row: the quote it answers, its reactions, on a root its thread, and a
 * poll's question and votes as the reader sees them.
 */
export interface MessageExtras {
  replyTo: ReplyQuote | null;
  reactions: Reaction[];
  thread?: ThreadSummary | null;
  poll?: Poll | null;
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

/**
 * The row a Message is made from: a message's stored columns but its chat's and its reaction count (those of
 * threads absent on a row from before them: a message in no thread).
 */
export type MessageRow = Omit<StoredMessage, 'reaction_count' | 'chat_id' | LaterColumns> &
  Partial<Pick<StoredMessage, LaterColumns>>;

/** A root's thread summary from its row and its participants; null while it has no replies. */
export const threadOf = (row: MessageRow, participants: number[] | undefined): ThreadSummary | null =>
  row.thread_reply_count && row.thread_last_reply_at
    ? {
        reply_count: row.thread_reply_count,
        last_reply_at: row.thread_last_reply_at,
        participant_ids: participants ?? [],
      }
    : null;

/** How a message names its sender. */
interface SenderFields {
  name: string;
  username: string;
  avatar: string | null;
  isBot: boolean;
}

const senderFields = (sender: Sender | undefined, system: boolean): SenderFields => ({
  name: system || !sender ? '' : displayNameOf(sender),
  username: sender?.username ?? (system ? '' : DELETED_USERNAME),
  avatar: avatarUrl(sender?.avatar ?? null),
  isBot: !!sender?.is_bot,
});

/** A webhook's message names the hook, with no username or picture of a person. */
const appFields = (name: string): SenderFields => ({ name, username: '', avatar: null, isBot: false });

export function toMessage(
  row: MessageRow,
  chatId: string,
  sender: Sender | undefined,
  marks: Marks[],
  files: ChatFile[] = [],
  extras: MessageExtras = NO_EXTRAS,
): Message {
  const who = row.app_name ? appFields(row.app_name) : senderFields(sender, row.kind === 'system');
  return messageOf(row, chatId, who, ticks(row.id, row.sender_id, marks), files, extras);
}

/** What a page's messages have in common, besides their rows. */
export interface PageParts {
  senderOf(userId: number | null): Sender | undefined;
  marks: Marks[];
  files: Map<number, ChatFile[]>;
  extrasOf(row: MessageRow): MessageExtras;
}

/**
 * A page of one chat's messages as one reader sees them. What many of them share is worked out once: a
 * sender's names and avatar, and each sender's tick thresholds.
 */
export function pageOfMessages(rows: MessageRow[], chatId: string, parts: PageParts): Message[] {
  const tick = tickRule(parts.marks);
  const senders = new Map<number, SenderFields>();
  return rows.map((row) => {
    const system = row.kind === 'system';
    let who = row.app_name
      ? appFields(row.app_name)
      : system || row.sender_id === null
        ? undefined
        : senders.get(row.sender_id);
    if (!who) {
      who = senderFields(parts.senderOf(row.sender_id), system);
      if (!system && row.sender_id !== null) senders.set(row.sender_id, who);
    }
    return messageOf(
      row,
      chatId,
      who,
      tick(row.id, row.sender_id),
      parts.files.get(row.id),
      parts.extrasOf(row),
    );
  });
}

function messageOf(
  row: MessageRow,
  chatId: string,
  who: SenderFields,
  t: Ticks,
  files: ChatFile[] = [],
  extras: MessageExtras,
): Message {
  const deleted = row.deleted_at !== null;
  return {
    id: row.id,
    sender: row.sender_id,
    sender_name: who.name,
    sender_username: who.username,
    sender_avatar: who.avatar,
    sender_is_bot: who.isBot,
    sender_is_app: !!row.app_name,
    body: deleted ? '' : row.body,
    files: deleted ? [] : files,
    is_read: t.is_read,
    is_delivered: t.is_delivered,
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
    thread_root: row.thread_root_id ?? null,
    also_in_chat: row.thread_root_id != null && row.in_timeline === 1,
    thread: extras.thread ?? null,
    ...(row.forwarded ? { forwarded: true } : {}),
    link_preview: row.link_preview && !deleted ? (JSON.parse(row.link_preview) as LinkPreview) : null,
    poll: deleted ? null : (extras.poll ?? null),
  };
}

/**
 * A reply's quote of the message it answers: the start of its text (a poll's question when it has none), or
 * nothing once it was deleted; a webhook's message is quoted under the hook's name.
 */
export function toQuote(
  quoted: Pick<StoredMessage, 'id' | 'body' | 'deleted_at' | 'kind' | 'sender_id'> & {
    poll_question?: string | null;
    app_name?: string | null;
  },
  sender: Sender | undefined,
): ReplyQuote {
  const deleted = quoted.deleted_at !== null;
  const text = bodyOrPoll({
    body: quoted.body,
    poll: quoted.poll_question ? { question: quoted.poll_question } : null,
  });
  return {
    id: quoted.id,
    sender_name: quoted.app_name ?? (quoted.kind === 'system' || !sender ? '' : displayNameOf(sender)),
    sender_id: quoted.kind === 'system' ? null : quoted.sender_id,
    body: deleted ? '' : [...text].slice(0, REPLY_QUOTE_LENGTH).join(''),
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
