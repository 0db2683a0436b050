import {
  CHANNEL_TEXT,
  type ChatFile,
  MESSAGE_TEXT,
  type Message,
  type PollInput,
  pollFromInput,
  THREAD_TEXT,
  type ThreadSummary,
} from '@parley/protocol';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { UserCard } from '../accounts/users.service';
import type { ChatRef } from '../chats/chat-membership';
import { type BlockPair, messageRefusal } from '../safety/blocks.service';
import type { insertMessages, NewMessageRow } from './message-inserts.repo';
import { toMessage, toQuote } from './message-view';
import type { QuotedRow } from './messages.repo';

// A batch of the group commit (message-writer.ts): the shapes a message takes on its way through, and the rules
// the batch applies to each message, kept free of I/O so the writer's steps read as check, insert, announce.

export interface Draft {
  /** A lookup still under way is fine: the message keeps its place in the queue meanwhile. */
  chat: ChatRef | Promise<ChatRef>;
  /** null for a system line ('Ada added Grace'). */
  senderId: number | null;
  clientId: string | null;
  body: string;
  fileIds: number[];
  /** The message of the same chat this one answers. */
  replyTo?: number | null;
  /** The root of the thread this reply is in (a message of the same chat in no thread). */
  threadRoot?: number | null;
  /** A thread reply that shows in the main timeline too. */
  alsoInChat?: boolean;
  /** A forwarded copy: the message whose files it names too (its own are the copies, not claimed uploads). */
  forwardOf?: number;
  /** Its sender wants no link preview under it. */
  noPreview?: boolean;
  /** Posted by an incoming webhook of this name (senderId null): a message, not a system line. */
  appName?: string;
  /** The message is this poll (stored by the polls module in the same transaction). */
  poll?: PollInput;
  /** The request that sent it (a socket's), carried by `message.published` for the logs of its fan-out. */
  requestId?: string;
}

export interface Written {
  message: Message;
  /** false when the (sender, client_id) was already stored: a resend. */
  created: boolean;
}

export interface Queued extends Draft {
  createdAt: string;
  resolve: (w: Written) => void;
  reject: (err: unknown) => void;
}

export interface Pending extends Queued {
  chat: ChatRef;
  /** The members the body mentions, found inside the write. */
  mentions?: number[];
}

/** What a batch reads beside its transaction (MessageWriter.readBeside). */
export interface SideReads {
  quotes: Promise<QuotedRow[]>;
  cards: Promise<UserCard[]>;
  blocks: Promise<BlockPair[]>;
  muted: Promise<Map<number, Set<number>>>;
  /** For each sender, the people a block stands between with them. */
  related: Promise<Map<number, Set<number>>>;
}

/** A batch past its checks: what may be stored, and the refusals, told once the transaction is through. */
export interface Checked {
  members: Map<number, number[]>;
  quoteOf: Map<number, QuotedRow>;
  accepted: Pending[];
  refused: [Pending, Error][];
}

/** A thread a batch replied in, as it stands after the batch: what the room is told, and whom to notify. */
export interface RepliedThread {
  summary: ThreadSummary;
  followerIds: number[];
}

/** A committed batch: each new message's id (a resend, which the insert skipped, has none). */
export interface Committed extends Checked {
  ids: Map<Pending, number>;
  threads: Map<number, RepliedThread>;
}

/** Who hears of a message: its chat's members, and among them who muted the chat or is kept apart by a block. */
export interface Audience {
  memberIds: number[];
  mutedIds: number[];
  blockedIds: number[];
}

/** The stored columns of a queued message. */
export const rowOf = (p: Pending): NewMessageRow => ({
  chat_id: p.chat.id,
  sender_id: p.senderId,
  kind: p.senderId === null && !p.appName ? 'system' : 'user',
  client_id: p.clientId,
  body: p.body,
  created_at: p.createdAt,
  reply_to_id: p.replyTo ?? null,
  mentions: JSON.stringify(p.mentions ?? []),
  thread_root_id: p.threadRoot ?? null,
  in_timeline: inTimeline(p) ? 1 : 0,
  // Always set: a multi-row INSERT gives every row the same columns.
  forwarded: p.forwardOf ? 1 : 0,
  no_preview: p.noPreview ? 1 : 0,
  has_poll: p.poll ? 1 : 0,
  app_name: p.appName ?? null,
});

/** A message of the main timeline: anything but a reply sent only to its thread. */
export const inTimeline = (p: Draft): boolean => !p.threadRoot || !!p.alsoInChat;

/** A person's or a webhook's message that may mention someone (system lines never do). */
export const mayMention = (p: Pending) => (p.senderId !== null || !!p.appName) && p.body.includes('@');

/** A person's message with files to claim. */
export const claimsFiles = (p: Pending): p is Pending & { senderId: number } =>
  p.fileIds.length > 0 && p.senderId !== null;

export const resendKey = (p: Pending) => `${p.chat.id}:${p.senderId}:${p.clientId}`;

/** A person's message to a group: one an announcement channel may refuse. */
export const isGroupPost = (p: Pending): boolean => p.senderId !== null && !p.chat.is_private;

/**
 * Why a message may not be stored, or null: its sender is not a member, or not among `posters` (an announcement
 * channel's owner and admins, when the chat is one), a block refuses it, or a bad reply.
 */
export function refusalOf(
  p: Pending,
  members: number[] | undefined,
  posters: ReadonlySet<number> | undefined,
  blocks: BlockPair[],
  quoteOf: Map<number, QuotedRow>,
): Error | null {
  if (p.senderId !== null && !members?.includes(p.senderId)) return new NotFoundError('Chat not found.');
  // Threads stay open to every member of an announcement channel; its timeline is the admins'.
  if (p.senderId !== null && posters && !posters.has(p.senderId) && inTimeline(p))
    return new ForbiddenError(CHANNEL_TEXT.adminsOnly);
  if (p.chat.is_private && p.senderId !== null && blocks.length > 0) {
    const other = members?.find((id) => id !== p.senderId);
    const refusal = other === undefined ? null : messageRefusal(blocks, p.senderId, other);
    if (refusal) return new ForbiddenError(refusal);
  }
  if (p.replyTo && quoteOf.get(p.replyTo)?.chat_id !== p.chat.id)
    return new BadRequestError(MESSAGE_TEXT.badReply);
  if (p.threadRoot) {
    const root = quoteOf.get(p.threadRoot);
    if (!root || root.chat_id !== p.chat.id || root.thread_root_id !== null || root.kind === 'system')
      return new BadRequestError(THREAD_TEXT.badRoot);
  }
  return null;
}

/** Each new message's id: inserted rows come back in the order given, without the resends the insert skipped. */
export function idsOf(accepted: Pending[], inserted: Awaited<ReturnType<typeof insertMessages>>) {
  const ids = new Map<Pending, number>();
  let next = 0;
  for (const p of accepted) {
    const row = inserted[next];
    if (row && row.chat_id === p.chat.id && row.sender_id === p.senderId && row.client_id === p.clientId) {
      ids.set(p, row.id);
      next += 1;
    }
  }
  return ids;
}

/**
 * The message's Audience; `related`: the people a block stands between with its sender. A reply sent only to
 * its thread is for the thread's followers who are members.
 */
export function audienceOf(
  p: Pending,
  members: Map<number, number[]>,
  muted: Map<number, Set<number>>,
  related: Set<number> | null,
  thread?: RepliedThread,
): Audience {
  const all = members.get(p.chat.id) ?? [];
  const followers = thread && !inTimeline(p) ? new Set(thread.followerIds) : null;
  const memberIds = followers ? all.filter((id) => followers.has(id)) : all;
  const blockedIds = related?.size ? memberIds.filter((id) => related.has(id)) : [];
  return { memberIds, mutedIds: [...(muted.get(p.chat.id) ?? [])], blockedIds };
}

/** A new message built from what its batch holds: neither delivered nor read yet, nor reacted to, nor voted on. */
export function newMessage(
  p: Pending,
  id: number,
  quoteOf: Map<number, QuotedRow>,
  cardOf: Map<number, UserCard>,
  files: ChatFile[] | undefined,
): Message {
  const sender = p.senderId === null ? undefined : cardOf.get(p.senderId);
  const quoted = p.replyTo ? quoteOf.get(p.replyTo) : undefined;
  const replyTo = quoted
    ? toQuote(quoted, quoted.sender_id === null ? undefined : cardOf.get(quoted.sender_id))
    : null;
  const row = { id, ...rowOf(p), edited_at: null, deleted_at: null, reaction_count: 0 };
  return toMessage(row, p.chat.chat_id, sender, [], files, {
    replyTo,
    reactions: [],
    poll: p.poll ? pollFromInput(p.poll) : null,
  });
}
