import { MESSAGE_TEXT, type Message, mentionedUsernames } from '@parley/protocol';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Metrics } from '../../platform/metrics';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import { type BlocksService, messageRefusal } from '../safety/blocks.service';
import * as inserts from './message-inserts.repo';
import type { MessageReader } from './message-reader';
import { toMessage, toQuote } from './message-view';
import { quotesOf } from './messages.repo';

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
  /** The request that sent it (a socket's), carried by `message.published` for the logs of its fan-out. */
  requestId?: string;
}

export interface Written {
  message: Message;
  /** false when the (sender, client_id) was already stored: a resend. */
  created: boolean;
}

export interface WriterDeps {
  db: Db;
  events: DomainEvents;
  chats: Pick<ChatMembership, 'memberIdsIn' | 'memberNamesIn' | 'touch' | 'mutedIn'>;
  attachments: Pick<AttachmentsService, 'claimable' | 'attach' | 'filesFor'>;
  users: Pick<UsersService, 'cards'>;
  reader: Pick<MessageReader, 'byId'>;
  /**
   * Blocks between the two people of a private chat refuse their messages; in a group, members a block stands
   * between with the sender are not notified of it (issue 13).
   */
  blocks?: Pick<BlocksService, 'blocksInvolving' | 'relatedTo'>;
  metrics?: Pick<Metrics, 'batchWritten' | 'published'>;
}

interface Queued extends Draft {
  createdAt: string;
  resolve: (w: Written) => void;
  reject: (err: unknown) => void;
}

interface Pending extends Queued {
  chat: ChatRef;
  /** The members the body mentions, found inside the write. */
  mentions?: number[];
}

/** The stored columns of a queued message. */
const rowOf = (p: Pending): inserts.NewMessageRow => ({
  chat_id: p.chat.id,
  sender_id: p.senderId,
  kind: p.senderId === null ? 'system' : 'user',
  client_id: p.clientId,
  body: p.body,
  created_at: p.createdAt,
  reply_to_id: p.replyTo ?? null,
  mentions: JSON.stringify(p.mentions ?? []),
});

/** A person's message that may mention someone (system lines never do). */
const mayMention = (p: Pending) => p.senderId !== null && p.body.includes('@');

const resendKey = (p: Pending) => `${p.chat.id}:${p.senderId}:${p.clientId}`;

/** Messages per batch: its INSERTs stay far below SQLite's and PostgreSQL's bound-parameter limits (8 per row). */
const MAX_BATCH = 500;

/**
 * Group commit for messages (DESIGN §8). Every message sent in this process goes through one queue: what
 * arrives while a transaction is under way is written by the next one, in arrival order, in multi-row INSERTs
 * (message-inserts.repo.ts) with one membership check, one chat touch and one sender lookup for the whole
 * batch. Batches run one after another and publish their messages (`message.published`) in id order, only after
 * their commit, so a client catching up with ?after=<last id seen> never skips a message still in flight. A
 * resend of a stored message is published again through the same event, in case the first broadcast died with a
 * crashed server.
 */
export class MessageWriter {
  private queue: Queued[] = [];
  private draining = false;

  constructor(private readonly deps: WriterDeps) {}

  write(draft: Draft): Promise<Written> {
    // A chat lookup that fails before its batch starts is told to the sender by the batch (withChats); until
    // then it must not count as an unhandled rejection, which would end the process.
    if (draft.chat instanceof Promise) draft.chat.catch(() => {});
    return new Promise<Written>((resolve, reject) => {
      this.queue.push({ ...draft, createdAt: new Date().toISOString(), resolve, reject });
      if (!this.draining) {
        this.draining = true;
        // Frames read in the same turn of the event loop share the first transaction.
        setImmediate(() => void this.drain());
      }
    });
  }

  /** Resolves once everything queued so far is written (or refused): a shutdown waits for it. */
  async settled(): Promise<void> {
    while (this.draining || this.queue.length > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = await this.withChats(this.queue.splice(0, MAX_BATCH));
      try {
        await this.writeBatch(batch);
      } catch (err) {
        if (batch.length === 1) {
          batch[0]?.reject(err);
          continue;
        }
        // One bad row fails its whole transaction: write each alone, so only that one fails.
        for (const p of batch) await this.writeBatch([p]).catch(p.reject);
      }
    }
    this.draining = false;
  }

  /** The batch with its chats looked up; a message whose chat cannot be found is refused here. */
  private async withChats(queued: Queued[]): Promise<Pending[]> {
    const chats = await Promise.allSettled(queued.map((q) => q.chat));
    return queued.flatMap((q, i) => {
      const chat = chats[i] as PromiseSettledResult<ChatRef>;
      if (chat.status === 'fulfilled') return [{ ...q, chat: chat.value }];
      q.reject(chat.reason);
      return [];
    });
  }

  private async writeBatch(batch: Pending[]): Promise<void> {
    const { db, chats, attachments, users } = this.deps;
    const chatIds = [...new Set(batch.map((p) => p.chat.id))];
    // Asked beside the transaction (on PostgreSQL another pooled connection): one round trip off the wait.
    // The quoted messages of replies too: they never move between chats, so reading them beside is safe.
    const senderIds = batch.flatMap((p) => (p.senderId === null ? [] : [p.senderId]));
    const replyIds = [...new Set(batch.flatMap((p) => (p.replyTo ? [p.replyTo] : [])))];
    const quotes = quotesOf(db, replyIds);
    const cards = quotes.then((q) =>
      users.cards([
        ...new Set([...senderIds, ...q.flatMap((m) => (m.sender_id === null ? [] : [m.sender_id]))]),
      ]),
    );
    cards.catch(() => {}); // awaited below; a failed write must not leave it unhandled
    // Blocks between the people of the batch's private chats, and who muted each chat (issue 13): read beside
    // the transaction too. A block made before the message was queued is in the table by now.
    const privateSenders = [
      ...new Set(batch.flatMap((p) => (p.chat.is_private && p.senderId !== null ? [p.senderId] : []))),
    ];
    const blocks =
      privateSenders.length > 0 && this.deps.blocks
        ? this.deps.blocks.blocksInvolving(privateSenders)
        : Promise.resolve([]);
    const muted = chats.mutedIn(chatIds);
    blocks.catch(() => {});
    muted.catch(() => {});
    const { accepted, members, refused, quoteOf } = await db.transaction().execute(async (trx) => {
      const members = await chats.memberIdsIn(trx, chatIds);
      const blockPairs = await blocks;
      const quoteOf = new Map((await quotes).map((q) => [q.id, q]));
      const mentioning = [...new Set(batch.filter(mayMention).map((p) => p.chat.id))];
      const names = mentioning.length > 0 ? await chats.memberNamesIn(trx, mentioning) : new Map();
      // Checked here, inside the write, so a member removed a moment ago cannot post. Refusals are told only
      // once the transaction is through (a failed batch is written again message by message).
      const accepted: Pending[] = [];
      const refused: [Pending, Error][] = [];
      const claimed = new Set<number>();
      const keys = new Set<string>();
      for (const p of batch) {
        if (p.senderId !== null && !members.get(p.chat.id)?.includes(p.senderId)) {
          refused.push([p, new NotFoundError('Chat not found.')]);
          continue;
        }
        if (p.chat.is_private && p.senderId !== null && blockPairs.length > 0) {
          const other = members.get(p.chat.id)?.find((id) => id !== p.senderId);
          const refusal = other === undefined ? null : messageRefusal(blockPairs, p.senderId, other);
          if (refusal) {
            refused.push([p, new ForbiddenError(refusal)]);
            continue;
          }
        }
        if (p.replyTo && quoteOf.get(p.replyTo)?.chat_id !== p.chat.id) {
          refused.push([p, new BadRequestError(MESSAGE_TEXT.badReply)]);
          continue;
        }
        if (mayMention(p)) {
          const byName = names.get(p.chat.id);
          p.mentions = mentionedUsernames(p.body).flatMap((n) => byName?.get(n) ?? []);
        }
        if (p.fileIds.length > 0 && p.senderId !== null && !(await this.isResend(trx, p, keys))) {
          const unique = [...new Set(p.fileIds)];
          const claimable = await attachments.claimable(trx, p.chat.id, p.senderId, unique);
          if (!claimable || unique.some((id) => claimed.has(id))) {
            refused.push([p, new BadRequestError('Some attached files are unknown or already sent.')]);
            continue;
          }
          for (const id of unique) claimed.add(id);
        }
        if (p.clientId !== null) keys.add(resendKey(p));
        accepted.push(p);
      }
      if (accepted.length === 0) return { accepted: [], members, refused, quoteOf };
      const inserted = await inserts.insertMessages(trx, accepted.map(rowOf));
      // Inserted rows come back in the order given, without the resends the unique index skipped.
      const ids = new Map<Pending, number>();
      let next = 0;
      for (const p of accepted) {
        const row = inserted[next];
        const same =
          row !== undefined &&
          row.chat_id === p.chat.id &&
          row.sender_id === p.senderId &&
          row.client_id === p.clientId;
        if (same) {
          ids.set(p, row.id);
          next += 1;
        }
      }
      // Each chat's last activity is its own newest message (drafts are in time order).
      const touched = new Map<number, string>();
      for (const p of accepted) if (ids.has(p)) touched.set(p.chat.id, p.createdAt);
      if (touched.size > 0) await chats.touch(trx, touched);
      for (const p of accepted) {
        const id = ids.get(p);
        if (id !== undefined && p.fileIds.length > 0) await attachments.attach(trx, p.fileIds, id);
      }
      return { accepted: accepted.map((p) => ({ p, id: ids.get(p) })), members, refused, quoteOf };
    });
    const committedAt = performance.now();
    for (const [p, err] of refused) p.reject(err);
    const { metrics } = this.deps;
    metrics?.batchWritten(batch.length, accepted.filter((a) => a.id !== undefined).length);
    if (accepted.length === 0) return;

    const withFiles = accepted.flatMap(({ p, id }) => (id && p.fileIds.length > 0 ? [id] : []));
    const [senders, files] = await Promise.all([
      cards,
      withFiles.length > 0 ? attachments.filesFor(withFiles) : Promise.resolve(new Map()),
    ]);
    const cardOf = new Map(senders.map((c) => [c.id, c]));
    const mutedByChat = await muted;
    for (const { p, id } of accepted) {
      const memberIds = members.get(p.chat.id) ?? [];
      const mutedIds = [...(mutedByChat.get(p.chat.id) ?? [])];
      const related =
        p.senderId !== null && this.deps.blocks ? await this.deps.blocks.relatedTo(p.senderId) : null;
      const blockedIds = related?.size ? memberIds.filter((id) => related.has(id)) : [];
      if (id === undefined) {
        // A resend: answer with what is stored (the original may be in this very batch) and publish it again.
        this.resendOf(p)
          .then((message) => {
            this.publish(p, message, memberIds, { mutedIds, blockedIds }, true);
            p.resolve({ message, created: false });
          })
          .catch(p.reject);
        continue;
      }
      const sender = p.senderId === null ? undefined : cardOf.get(p.senderId);
      const quoted = p.replyTo ? quoteOf.get(p.replyTo) : undefined;
      const replyTo = quoted
        ? toQuote(quoted, quoted.sender_id === null ? undefined : cardOf.get(quoted.sender_id))
        : null;
      // A new message is neither delivered nor read yet, nor reacted to: its ticks need no marks.
      const row = { id, ...rowOf(p), edited_at: null, deleted_at: null, reaction_count: 0 };
      const message = toMessage(row, p.chat.chat_id, sender, [], files.get(id), { replyTo, reactions: [] });
      this.publish(p, message, memberIds, { mutedIds, blockedIds }, false);
      metrics?.published(committedAt);
      p.resolve({ message, created: true });
    }
  }

  private publish(
    p: Pending,
    message: Message,
    memberIds: number[],
    quiet: { mutedIds: number[]; blockedIds: number[] },
    resend: boolean,
  ): void {
    this.deps.events.emit('message.published', {
      chatId: p.chat.chat_id,
      isPrivate: !!p.chat.is_private,
      message,
      clientId: p.clientId,
      memberIds,
      mutedIds: quiet.mutedIds,
      ...(quiet.blockedIds.length > 0 ? { blockedIds: quiet.blockedIds } : {}),
      resend,
      ...(p.requestId ? { requestId: p.requestId } : {}),
    });
  }

  /**
   * A message with files whose client_id is already stored, or earlier in this batch: its files were claimed
   * by the first copy, and the insert will skip it, so it is answered with the stored message.
   */
  private async isResend(trx: Transaction<Database>, p: Pending, inBatch: Set<string>): Promise<boolean> {
    if (p.clientId === null || p.senderId === null) return false;
    if (inBatch.has(resendKey(p))) return true;
    return (await inserts.messageByClientId(trx, p.chat.id, p.senderId, p.clientId)) !== undefined;
  }

  private async resendOf(p: Pending): Promise<Message> {
    const stored = await inserts.messageByClientId(
      this.deps.db,
      p.chat.id,
      p.senderId ?? 0,
      p.clientId ?? '',
    );
    if (!stored) throw new NotFoundError();
    return this.deps.reader.byId(stored.id, p.chat);
  }
}
