import { type ChatFile, type Message, mentionedUsernames } from '@parley/protocol';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import {
  BadRequestError,
  DatabaseUnavailableError,
  isDatabaseUnreachable,
  isStorageFull,
  NotFoundError,
  StorageFullError,
} from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Metrics } from '../../platform/metrics';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import type { NewPoll, PollsService } from '../polls/polls.service';
import type { BlocksService } from '../safety/blocks.service';
import { readBeside } from './batch-side-reads';
import {
  type Audience,
  audienceOf,
  type Checked,
  type Committed,
  claimsFiles,
  type Draft,
  idsOf,
  inTimeline,
  isGroupPost,
  mayMention,
  newMessage,
  type Pending,
  type Queued,
  refusalOf,
  resendKey,
  rowOf,
  type SideReads,
  type Written,
} from './message-batch';
import { insertMessages, messageByClientId } from './message-inserts.repo';
import type { MessageReader } from './message-reader';
import { countReplies } from './thread-replies';

export interface WriterDeps {
  db: Db;
  events: DomainEvents;
  chats: Pick<ChatMembership, 'memberIdsIn' | 'restrictedPostersIn' | 'memberNamesIn' | 'touch' | 'mutedIn'>;
  attachments: Pick<AttachmentsService, 'claimable' | 'attach' | 'copyFiles' | 'filesFor'>;
  users: Pick<UsersService, 'cards'>;
  reader: Pick<MessageReader, 'byId'>;
  /**
   * Blocks between the two people of a private chat refuse their messages; in a group, members a block stands
   * between with the sender are not notified of it.
   */
  blocks: Pick<BlocksService, 'blocksInvolving' | 'relatedTo'>;
  /** Absent when metrics are not served. */
  metrics?: Pick<Metrics, 'batchWritten' | 'published'>;
  /** A poll message's poll is stored in the same transaction. */
  polls: Pick<PollsService, 'create'>;
}

type Trx = Transaction<Database>;

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
        if (batch.length === 1 || isDatabaseUnreachable(err) || isStorageFull(err)) {
          refuseAll(batch, err);
          continue;
        }
        // One bad row fails its whole transaction: write each alone, so only that one fails.
        for (const [i, p] of batch.entries()) {
          try {
            await this.writeBatch([p]);
          } catch (alone) {
            if (!isDatabaseUnreachable(alone) && !isStorageFull(alone)) {
              p.reject(alone);
              continue;
            }
            refuseAll(batch.slice(i), alone);
            break;
          }
        }
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

  /** One transaction: the batch is checked and inserted inside it, and announced once it has committed. */
  private async writeBatch(batch: Pending[]): Promise<void> {
    const chatIds = [...new Set(batch.map((p) => p.chat.id))];
    const side = readBeside(this.deps, batch, chatIds);
    const committed = await this.deps.db.transaction().execute(async (trx): Promise<Committed> => {
      const checked = await this.check(trx, batch, chatIds, side);
      const ids = await this.insert(trx, checked.accepted);
      return { ...checked, ids, threads: await countReplies(trx, checked, ids) };
    });
    const committedAt = performance.now();
    for (const [p, err] of committed.refused) p.reject(err);
    this.deps.metrics?.batchWritten(batch.length, committed.ids.size);
    if (committed.accepted.length > 0) await this.announce(committed, side, committedAt);
  }

  /**
   * The checks, inside the write so a member removed a moment ago cannot post: membership, who may post in an
   * announcement channel, blocks in private chats, replies within their chat, files free to claim. The members
   * each body mentions are found here too.
   */
  private async check(trx: Trx, batch: Pending[], chatIds: number[], side: SideReads): Promise<Checked> {
    const { chats } = this.deps;
    const members = await chats.memberIdsIn(trx, chatIds);
    const groups = [...new Set(batch.filter(isGroupPost).map((p) => p.chat.id))];
    const posters = groups.length > 0 ? await chats.restrictedPostersIn(trx, groups) : new Map();
    const blocks = await side.blocks;
    const checked: Checked = {
      members,
      quoteOf: new Map((await side.quotes).map((q) => [q.id, q])),
      accepted: [],
      refused: [],
    };
    const mentioning = [...new Set(batch.filter(mayMention).map((p) => p.chat.id))];
    const names = mentioning.length > 0 ? await chats.memberNamesIn(trx, mentioning) : new Map();
    const claimed = new Set<number>();
    const keys = new Set<string>();
    for (const p of batch) {
      const refusal =
        refusalOf(p, members.get(p.chat.id), posters.get(p.chat.id), blocks, checked.quoteOf) ??
        (claimsFiles(p) ? await this.claimFiles(trx, p, claimed, keys) : null);
      if (refusal) {
        checked.refused.push([p, refusal]);
        continue;
      }
      if (mayMention(p)) {
        const byName = names.get(p.chat.id);
        p.mentions = mentionedUsernames(p.body).flatMap((n) => byName?.get(n) ?? []);
      }
      if (p.clientId !== null) keys.add(resendKey(p));
      checked.accepted.push(p);
    }
    return checked;
  }

  /** Claims a message's files, or the refusal: one is unknown, already sent or claimed earlier in the batch. */
  private async claimFiles(
    trx: Trx,
    p: Pending & { senderId: number },
    claimed: Set<number>,
    keys: Set<string>,
  ): Promise<Error | null> {
    // A resend claims nothing: its files went with the first copy.
    if (await this.isResend(trx, p, keys)) return null;
    const unique = [...new Set(p.fileIds)];
    const claimable = await this.deps.attachments.claimable(trx, p.chat.id, p.senderId, unique);
    if (!claimable || unique.some((id) => claimed.has(id)))
      return new BadRequestError('Some attached files are unknown or already sent.');
    for (const id of unique) claimed.add(id);
    return null;
  }

  /**
   * Stores the accepted messages, moves each chat's last activity to its own newest message (drafts are in time
   * order), ties each message's files to it and stores the polls.
   */
  private async insert(trx: Trx, accepted: Pending[]): Promise<Map<Pending, number>> {
    if (accepted.length === 0) return new Map();
    const { chats, attachments, polls } = this.deps;
    const ids = idsOf(accepted, await insertMessages(trx, accepted.map(rowOf)));
    // A reply sent only to its thread leaves the chat's place in the lists where it was.
    const touched = new Map<number, string>();
    for (const p of accepted) if (ids.has(p) && inTimeline(p)) touched.set(p.chat.id, p.createdAt);
    if (touched.size > 0) await chats.touch(trx, touched);
    for (const p of accepted) {
      const id = ids.get(p);
      if (id !== undefined && p.fileIds.length > 0) await attachments.attach(trx, p.fileIds, id);
      if (id !== undefined && p.forwardOf && p.senderId !== null)
        await attachments.copyFiles(trx, p.forwardOf, { chatDbId: p.chat.id, messageId: id, by: p.senderId });
    }
    const asked: NewPoll[] = [];
    for (const p of accepted) {
      const id = ids.get(p);
      if (id !== undefined && p.poll && p.senderId !== null)
        asked.push({ messageId: id, chatDbId: p.chat.id, senderId: p.senderId, input: p.poll });
    }
    if (asked.length > 0) await polls.create(trx, asked);
    return ids;
  }

  /** Publishes the committed batch in id order, then each thread it replied in, and answers each sender. */
  private async announce(committed: Committed, side: SideReads, committedAt: number): Promise<void> {
    const { attachments, metrics } = this.deps;
    const { accepted, ids } = committed;
    const withFiles: number[] = [];
    for (const p of accepted) {
      const id = ids.get(p);
      if (id !== undefined && (p.fileIds.length > 0 || p.forwardOf)) withFiles.push(id);
    }
    const [senders, files] = await Promise.all([
      side.cards,
      withFiles.length > 0 ? attachments.filesFor(withFiles) : Promise.resolve(new Map<number, ChatFile[]>()),
    ]);
    const cardOf = new Map(senders.map((c) => [c.id, c]));
    const [muted, relatedBySender] = await Promise.all([side.muted, side.related]);
    for (const p of accepted) {
      const related = p.senderId === null ? null : (relatedBySender.get(p.senderId) ?? null);
      const thread = p.threadRoot ? committed.threads.get(p.threadRoot) : undefined;
      const audience = audienceOf(p, committed.members, muted, related, thread);
      const id = ids.get(p);
      if (id === undefined) {
        this.announceResend(p, audience);
        continue;
      }
      const message = newMessage(p, id, committed.quoteOf, cardOf, files.get(id));
      this.publish(p, message, audience, false);
      metrics?.published(committedAt);
      p.resolve({ message, created: true });
    }
    const chatOf = new Map(accepted.flatMap((p) => (p.threadRoot ? [[p.threadRoot, p.chat.chat_id]] : [])));
    for (const [rootId, thread] of committed.threads)
      this.deps.events.emit('thread.updated', {
        chatId: chatOf.get(rootId) ?? '',
        rootId,
        thread: thread.summary,
      });
  }

  /** A resend is answered with what is stored (the original may be in this very batch) and published again. */
  private announceResend(p: Pending, audience: Audience): void {
    this.resendOf(p)
      .then((message) => {
        this.publish(p, message, audience, true);
        p.resolve({ message, created: false });
      })
      .catch(p.reject);
  }

  private publish(p: Pending, message: Message, audience: Audience, resend: boolean): void {
    this.deps.events.emit('message.published', {
      chatId: p.chat.chat_id,
      isPrivate: !!p.chat.is_private,
      message,
      clientId: p.clientId,
      memberIds: audience.memberIds,
      mutedIds: audience.mutedIds,
      ...(audience.blockedIds.length > 0 ? { blockedIds: audience.blockedIds } : {}),
      resend,
      ...(p.requestId ? { requestId: p.requestId } : {}),
    });
  }

  /**
   * A message with files whose client_id is already stored, or earlier in this batch: its files were claimed
   * by the first copy, and the insert will skip it, so it is answered with the stored message.
   */
  private async isResend(trx: Trx, p: Pending, inBatch: Set<string>): Promise<boolean> {
    if (p.clientId === null || p.senderId === null) return false;
    if (inBatch.has(resendKey(p))) return true;
    return (await messageByClientId(trx, p.chat.id, p.senderId, p.clientId)) !== undefined;
  }

  private async resendOf(p: Pending): Promise<Message> {
    const stored = await messageByClientId(this.deps.db, p.chat.id, p.senderId ?? 0, p.clientId ?? '');
    if (!stored) throw new NotFoundError();
    return this.deps.reader.byId(stored.id, p.chat);
  }
}

/**
 * Every message of a batch refused for `err`. The database out of reach refuses them all with
 * DatabaseUnavailableError at once (trying each alone would only wait for it again): each sender hears a
 * resendable refusal, and a resend with the same client_id is answered with the stored message if the
 * connection was cut during the commit.
 */
function refuseAll(batch: Pending[], err: unknown): void {
  let reason = err;
  // A full disk is refused with its own sentence (507): SQLite rolled the transaction back, nothing was stored.
  if (isStorageFull(err)) reason = err instanceof StorageFullError ? err : new StorageFullError(err);
  else if (isDatabaseUnreachable(err) && !(err instanceof DatabaseUnavailableError))
    reason = new DatabaseUnavailableError(err);
  for (const p of batch) p.reject(reason);
}
