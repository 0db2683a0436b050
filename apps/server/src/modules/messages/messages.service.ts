import {
  MESSAGE_MAX_LENGTH,
  MESSAGE_TEXT,
  type Message,
  type SendInput,
  SOCKET_ERRORS,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { BadRequestError, isDatabaseUnreachable, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Lifecycle } from '../../platform/lifecycle';
import type { Metrics } from '../../platform/metrics';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import type { LinkPreviewsService } from '../link-previews/link-previews.service';
import type { PollsService } from '../polls/polls.service';
import type { BlocksService } from '../safety/blocks.service';
import { Forwarding } from './forwarding';
import { LinkPreviewUpdates } from './link-preview-updates';
import { MessageChanges } from './message-changes';
import { MessageReader } from './message-reader';
import type { MessageStats } from './message-stats';
import { MessageWriter } from './message-writer';
import * as repo from './messages.repo';
import { dropPagesOnChange, NewestPages } from './newest-pages';
import { ReceiptBatcher } from './receipts';
import { type ChatNames, Threads } from './threads';
import { VoicePlayed } from './voice-played';

interface Deps {
  db: Db;
  events: DomainEvents;
  membership: ChatMembership;
  users: UsersService;
  attachments: AttachmentsService;
  stats: MessageStats;
  log: FastifyBaseLogger;
  metrics?: Metrics;
  /** Blocks refuse private messages between the two people. */
  blocks: Pick<BlocksService, 'blocksInvolving' | 'relatedTo'>;
  /** How a person's chat list names chats (the Threads view names each thread's chat so). */
  chatNames: ChatNames;
  lifecycle: Pick<Lifecycle, 'track'>;
  /** Link previews' cache and fetching (the link-previews module). */
  previews: Pick<LinkPreviewsService, 'enabled' | 'hasRoom' | 'previewOf'>;
  /** Poll messages' polls: stored with them, shown on them, gone with them (the polls module). */
  polls: Pick<PollsService, 'create' | 'viewsOf' | 'removeIn' | 'inputOf'>;
  /** SQLite's count of other connections' commits: with it, the newest history pages are kept (newest-pages.ts). */
  commitsElsewhere?: () => number;
}

export class InvalidMessageError extends BadRequestError {}

/**
 * Messages: sending (through the group-commit writer), system lines, the history page, read and delivery
 * receipts and unread counts. Membership is the chats module's (ChatMembership): every call checks it there.
 */
export class MessagesService {
  private readonly reader: MessageReader;
  private readonly writer: MessageWriter;
  private readonly receipts: ReceiptBatcher;
  /** Edits, deletion for everyone and reactions (message-changes.ts). */
  readonly changes: MessageChanges;
  /** Thread pages, following and the threads a person follows (threads.ts). */
  readonly threads: Threads;
  /** Copies of a message sent to other chats (forwarding.ts). */
  readonly forwarding: Forwarding;
  /** Each message's link preview (link-preview-updates.ts). */
  readonly linkPreviews: LinkPreviewUpdates;
  /** A private chat's voice messages marked played by the person they were sent to (voice-played.ts). */
  readonly voicePlayed: VoicePlayed;

  constructor(private readonly deps: Deps) {
    const {
      db,
      events,
      membership: chats,
      users,
      attachments,
      log,
      metrics,
      blocks,
      commitsElsewhere,
      chatNames,
      polls,
    } = deps;
    const newestPages = commitsElsewhere ? new NewestPages({ commitsElsewhere }) : undefined;
    if (newestPages) dropPagesOnChange(newestPages, events);
    this.reader = new MessageReader({ db, newestPages, chats, attachments, users, blocks, polls });
    this.writer = new MessageWriter({
      db,
      events,
      chats,
      attachments,
      users,
      reader: this.reader,
      metrics,
      blocks,
      polls,
    });
    this.changes = new MessageChanges({ db, events, chats, attachments, reader: this.reader, polls });
    this.linkPreviews = new LinkPreviewUpdates({
      db,
      events,
      lifecycle: deps.lifecycle,
      log,
      membership: chats,
      previews: deps.previews,
      reader: this.reader,
    });
    this.forwarding = new Forwarding({ db, membership: chats, blocks, writer: this.writer, polls });
    this.threads = new Threads({
      db,
      events,
      membership: chats,
      reader: this.reader,
      chatNames,
      pages: newestPages,
    });
    this.voicePlayed = new VoicePlayed({ db, events, membership: chats, attachments });
    this.receipts = new ReceiptBatcher({
      db,
      events,
      chats,
      // A database outage is logged once by the database layer, not once per batch of marks.
      onError: (err) => {
        if (!isDatabaseUnreachable(err)) log.error({ err }, 'writing receipts failed');
      },
    });
  }

  /**
   * Stores and publishes one message; a resend with a known client_id returns the stored message, stores
   * nothing new and publishes it again. Messages are stored in the order they were sent (message-writer.ts).
   */
  async send(
    userId: number,
    chatId: string,
    input: SendInput,
    /** The request (socket) it came in on: the logs of its fan-out carry its id. */
    requestId?: string,
  ): Promise<{ message: Message; created: boolean }> {
    const body = input.body.trim();
    const fileIds = input.file_ids ?? [];
    // The body may be empty when files travel with the message, or when it is a poll.
    if (!body && fileIds.length === 0 && !input.poll) throw new InvalidMessageError(SOCKET_ERRORS.blank);
    if (body.length > MESSAGE_MAX_LENGTH) throw new InvalidMessageError(SOCKET_ERRORS.tooLong);
    // Queued at once, the chat looked up meanwhile.
    return this.writer.write({
      chat: this.deps.membership.ref(chatId),
      senderId: userId,
      clientId: input.client_id ?? null,
      body,
      fileIds,
      replyTo: input.reply_to ?? null,
      threadRoot: input.thread_root ?? null,
      alsoInChat: !!input.thread_root && !!input.also_in_chat,
      noPreview: !!input.no_preview,
      ...(input.poll ? { poll: input.poll } : {}),
      requestId,
    });
  }

  /** Stores a short system line ('Ada added Grace') in the chat and delivers it like any message. */
  async announce(chat: ChatRef, text: string): Promise<void> {
    await this.writer.write({ chat, senderId: null, clientId: null, body: text, fileIds: [] });
  }

  /**
   * Stores a message an app posted (an incoming webhook named `appName`) and delivers it like a person's: it
   * counts unread, notifies and is searchable. `body` is already checked (1..4096 characters, trimmed).
   */
  async postAsApp(chat: ChatRef, appName: string, body: string): Promise<Message> {
    const written = await this.writer.write({
      chat,
      senderId: null,
      clientId: null,
      body,
      fileIds: [],
      appName,
    });
    return written.message;
  }

  /**
   * A page of the history as the reader sees it (nothing before what they cleared): the newest, older than
   * `before`, newer than `after`, or `limit` consecutive ones around a message.
   */
  async history(
    userId: number,
    chatId: string,
    q: { before?: number; after?: number; around?: number; limit: number },
  ): Promise<Message[]> {
    // The membership check reads the members the page's ticks and senders need: no second read.
    const { chat, members, reader } = await this.deps.membership.pageAccess(userId, chatId);
    return this.reader.page(chat, userId, { ...q, clearedBefore: reader.cleared_before_id }, members);
  }

  /**
   * A message as `viewerId`, a member of its chat, sees it, with its chat; 404 alike for no such message and a
   * chat the viewer is not in (reports name messages by id).
   */
  async visibleTo(viewerId: number, messageId: number): Promise<{ message: Message; chat: ChatRef }> {
    const row = await repo.messageById(this.deps.db, messageId);
    if (!row) throw new NotFoundError(MESSAGE_TEXT.notFound);
    const chat = await this.deps.membership.refByRowId(row.chat_id);
    const { member } = await this.deps.membership.requireMember(viewerId, chat.chat_id).catch(() => {
      throw new NotFoundError(MESSAGE_TEXT.notFound);
    });
    if (messageId <= member.cleared_before_id) throw new NotFoundError(MESSAGE_TEXT.notFound);
    return { message: await this.reader.byId(messageId, chat, viewerId), chat };
  }

  /**
   * A message with up to `around` messages before and after it, as they read now, for someone outside the chat
   * (an operator reading a report); empty when the message is gone.
   */
  async contextOf(messageId: number, around = 3): Promise<Message[]> {
    const row = await repo.messageById(this.deps.db, messageId);
    if (!row) return [];
    const chat = await this.deps.membership.refByRowId(row.chat_id);
    return this.reader.page(chat, 0, { around: messageId, limit: 2 * around + 1, clearedBefore: 0 });
  }

  /** Messages found by search, as `viewerId` sees them, by id: read chat by chat. */
  async viewMany(viewerId: number, hits: { id: number; chat: ChatRef }[]): Promise<Map<number, Message>> {
    const byChat = new Map<number, { chat: ChatRef; ids: number[] }>();
    for (const h of hits) {
      const entry = byChat.get(h.chat.id) ?? { chat: h.chat, ids: [] };
      entry.ids.push(h.id);
      byChat.set(h.chat.id, entry);
    }
    const pages = await Promise.all(
      [...byChat.values()].map((e) => this.reader.some(e.chat, viewerId, e.ids)),
    );
    return new Map(pages.flat().map((m) => [m.id, m]));
  }

  /**
   * Records that the user has read up to the highest of `ids` in this chat (and so received them). Receipts are
   * written and announced together per chat, a moment later (receipts.ts); a non-member's count for nothing.
   * With `threadRoot`, the ids are replies of that thread: only the reader's mark in the thread moves.
   */
  async markRead(userId: number, chatId: string, ids: number[], threadRoot?: number): Promise<void> {
    if (ids.length === 0) return;
    const chat = await this.deps.membership.ref(chatId);
    if (threadRoot) return this.threads.markRead(userId, chat, threadRoot, ids);
    this.receipts.read(userId, chat, ids);
  }

  /** Records that the user's client received these messages (written like reads). */
  async markDelivered(userId: number, chatId: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    this.receipts.delivered(userId, await this.deps.membership.ref(chatId), ids);
  }

  /** Resolves once the receipts reported so far are written (they are written a moment later, receipts.ts). */
  receiptsSettled(): Promise<void> {
    return this.receipts.settled();
  }

  totalUnread(userId: number): Promise<number> {
    return this.deps.stats.unreadTotal(userId);
  }

  /** The chats (row ids) where an unread message mentions this person. */
  unreadMentionsIn(userId: number): Promise<Set<number>> {
    return this.deps.stats.mentionedIn(userId);
  }

  /** Unread replies of the threads this person follows, per chat (row id). */
  unreadRepliesPerChat(userId: number): Promise<Map<number, number>> {
    return this.deps.stats.unreadRepliesPerChat(userId);
  }

  totalsUnread(userIds: number[]): Promise<Map<number, number>> {
    return this.deps.stats.unreadTotals(userIds);
  }

  totalMessages(): Promise<number> {
    return this.deps.stats.totalMessages();
  }

  /** Resolves once the messages sent so far are stored and published (a shutdown finishes the commit in flight). */
  writesSettled(): Promise<void> {
    return this.writer.settled();
  }

  /** Stops writing receipts (the app is closing). */
  close(): void {
    this.receipts.close();
  }
}
