import { randomBytes } from 'node:crypto';
import {
  type ChatListItem,
  type ChatMember,
  DELETED_DISPLAY_NAME,
  DELETED_USERNAME,
  MAX_DB_ID,
  MESSAGE_MAX_LENGTH,
  type Message,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Presence } from '../../platform/presence';
import { avatarUrl } from '../accounts/user-view';
import type { AttachmentsService } from '../attachments/attachments.service';
import { type ChatRef, MessageWriter } from '../messages/message-writer';
import { ReceiptBatcher } from '../messages/receipts';
import { marksOf, toDetail, toMember, toMessage } from './chat-view';
import * as repo from './chats.repo';

interface Deps {
  db: Db;
  events: DomainEvents;
  presence: Presence;
  attachments: AttachmentsService;
  log: FastifyBaseLogger;
}

export class InvalidMessageError extends BadRequestError {}

const newChatId = () => randomBytes(9).toString('base64url');
const nowIso = () => new Date().toISOString();
const CHAT_REF_CACHE_SIZE = 10_000;

/** Chat rules: membership (non-members learn nothing), private and group chats, history, reads and deliveries. */
export class ChatsService {
  private readonly writer: MessageWriter;
  private readonly receipts: ReceiptBatcher;
  private readonly chatRefs = new Map<string, ChatRef>();

  constructor(private readonly d: Deps) {
    this.receipts = new ReceiptBatcher({
      db: d.db,
      events: d.events,
      onError: (err) => d.log.error({ err }, 'writing receipts failed'),
    });
    this.writer = new MessageWriter({
      db: d.db,
      attachments: d.attachments,
      storedView: (id, chat) => this.messageView(id, chat),
      onCreated: (chat, { message, memberIds }, clientId) =>
        d.events.emit('message.created', {
          chatId: chat.chat_id,
          isPrivate: !!chat.is_private,
          message,
          clientId,
          memberIds,
        }),
    });
  }

  totalMessages(): Promise<number> {
    return repo.countMessages(this.d.db);
  }

  /** The chat and the caller's membership; 404 alike for no such chat and not a member. */
  async requireMember(userId: number, chatId: string) {
    const found = await repo.findChatWithMembership(this.d.db, chatId, userId);
    if (!found) throw new NotFoundError('Chat not found.');
    return found;
  }

  async listChats(userId: number): Promise<ChatListItem[]> {
    const chats = await repo.chatsOfUser(this.d.db, userId);
    const ids = chats.map((c) => c.id);
    const [members, last, unread] = await Promise.all([
      repo.membersOf(this.d.db, ids),
      repo.lastMessages(this.d.db, ids),
      repo.unreadCounts(this.d.db, userId),
    ]);
    const online = await this.d.presence.onlineAmong(members.flatMap((m) => (m.user_id ? [m.user_id] : [])));
    const lastByChat = new Map(last.map((m) => [m.chat_id, m]));
    const unreadByChat = new Map(unread.map((u) => [u.chat_id, Number(u.n)]));
    return chats.map((c) => {
      const mine = members.filter((m) => m.chat_id === c.id);
      const lastMsg = lastByChat.get(c.id);
      const visibleLast = lastMsg && lastMsg.id > c.cleared_before_id ? lastMsg : undefined;
      const base = {
        id: c.id,
        chat_id: c.chat_id,
        is_private: !!c.is_private,
        member_count: mine.length,
        last_message: visibleLast?.body ?? null,
        last_message_time: visibleLast?.created_at ?? null,
        is_admin: c.role === 'admin',
        unread_count: unreadByChat.get(c.id) ?? 0,
      };
      if (!c.is_private) {
        return {
          ...base,
          display_name: c.name,
          avatar: avatarUrl(c.avatar),
          other_user: null,
          is_online: false,
        };
      }
      const otherRow = mine.find((m) => m.user_id !== userId);
      const other: ChatMember | null = otherRow ? toMember(otherRow, online) : null;
      return {
        ...base,
        display_name: other?.name ?? DELETED_DISPLAY_NAME,
        avatar: other?.avatar ?? null,
        other_user: other
          ? {
              id: other.id,
              username: other.username,
              avatar: other.avatar,
              is_blue_verified: other.is_blue_verified,
            }
          : { id: null, username: DELETED_USERNAME, avatar: null, is_blue_verified: false },
        is_online: other?.is_online ?? false,
      };
    });
  }

  async detail(userId: number, chatId: string) {
    const { chat } = await this.requireMember(userId, chatId);
    const rows = await repo.membersOf(this.d.db, [chat.id]);
    const online = await this.d.presence.onlineAmong(rows.flatMap((m) => (m.user_id ? [m.user_id] : [])));
    return toDetail(
      chat,
      rows.map((m) => toMember(m, online)),
      userId,
    );
  }

  /** A group's detail as every member sees it, for broadcasting changes. */
  async groupDetail(chatId: string) {
    const chat = await repo.findChatByPublicId(this.d.db, chatId);
    if (!chat) return null;
    const rows = await repo.membersOf(this.d.db, [chat.id]);
    const online = await this.d.presence.onlineAmong(rows.flatMap((m) => (m.user_id ? [m.user_id] : [])));
    return toDetail(
      chat,
      rows.map((m) => toMember(m, online)),
      0,
    );
  }

  async messages(
    userId: number,
    chatId: string,
    q: { before?: number; after?: number; limit: number },
  ): Promise<Message[]> {
    const { chat, member } = await this.requireMember(userId, chatId);
    const [rows, members] = await Promise.all([
      repo.messagesPage(this.d.db, chat.id, { ...q, clearedBefore: member.cleared_before_id }),
      repo.pageMembersOf(this.d.db, chat.id),
    ]);
    // The senders' names and avatars come with the members (read anyway for the ticks): cheaper than joining
    // users to every message. Only a sender who has left the chat is looked up.
    type Sender = Pick<repo.MessageRow, 'username' | 'first_name' | 'last_name' | 'displayname' | 'avatar'>;
    const senders = new Map<number, Sender>();
    for (const m of members) if (m.user_id !== null) senders.set(m.user_id, m);
    const marks = marksOf(members);
    const missing = new Set<number>();
    for (const r of rows) if (r.sender_id !== null && !senders.has(r.sender_id)) missing.add(r.sender_id);
    const [files, departed] = await Promise.all([
      this.d.attachments.filesFor(rows.map((r) => r.id)),
      repo.senderCards(this.d.db, [...missing]),
    ]);
    for (const s of departed) senders.set(s.id, s);
    return rows.map((r) => {
      const s = r.sender_id === null ? undefined : senders.get(r.sender_id);
      const row: repo.MessageRow = {
        id: r.id,
        chat_id: chat.id,
        sender_id: r.sender_id,
        kind: r.kind,
        client_id: r.client_id,
        body: r.body,
        created_at: r.created_at,
        username: s?.username ?? null,
        first_name: s?.first_name ?? null,
        last_name: s?.last_name ?? null,
        displayname: s?.displayname ?? null,
        avatar: s?.avatar ?? null,
      };
      return toMessage(row, chat.chat_id, marks, files.get(r.id));
    });
  }

  /** Starts or gets the one private chat between two people; the target is a user id or a username. */
  async startPrivate(userId: number, target: string): Promise<{ chat_id: string }> {
    // A username first (usernames may be all digits), then a numeric user id.
    const activated = this.d.db.selectFrom('users').select(['id']).where('is_activated', '=', 1);
    const other =
      (await activated
        .where((eb) => eb(eb.fn('lower', [eb.ref('username')]), '=', target.toLowerCase()))
        .executeTakeFirst()) ??
      (/^\d{1,10}$/.test(target) && Number(target) <= MAX_DB_ID
        ? await activated.where('id', '=', Number(target)).executeTakeFirst()
        : undefined);
    if (!other) throw new NotFoundError('User not found.');
    if (other.id === userId) throw new BadRequestError('You cannot start a chat with yourself.');
    const key = [userId, other.id].sort((a, b) => a - b).join(':');
    const existing = await repo.findChatByPrivateKey(this.d.db, key);
    if (existing) return { chat_id: existing.chat_id };
    try {
      return await this.d.db.transaction().execute(async (trx) => {
        const now = nowIso();
        const chatId = newChatId();
        const id = await repo.insertChat(trx, {
          chat_id: chatId,
          is_private: 1,
          private_key: key,
          name: '',
          now,
        });
        await repo.insertMember(trx, { chat_id: id, user_id: userId, role: 'member', joined_at: now });
        await repo.insertMember(trx, { chat_id: id, user_id: other.id, role: 'member', joined_at: now });
        return { chat_id: chatId };
      });
    } catch (err) {
      // Both people pressed Message at once: the unique private key kept one chat; answer with it.
      const raced = await repo.findChatByPrivateKey(this.d.db, key);
      if (raced) return { chat_id: raced.chat_id };
      throw err;
    }
  }

  async createGroup(userId: number, name: string): Promise<{ chat_id: string }> {
    return this.d.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const chatId = newChatId();
      const id = await repo.insertChat(trx, { chat_id: chatId, is_private: 0, private_key: null, name, now });
      await repo.insertMember(trx, { chat_id: id, user_id: userId, role: 'admin', joined_at: now });
      return { chat_id: chatId };
    });
  }

  /**
   * Stores and announces one message; a resend with a known client_id returns the stored message and stores
   * nothing new. Writes go through the group-commit writer, which announces in id order (message-writer.ts).
   */
  async send(
    userId: number,
    chatId: string,
    input: { body: string; client_id?: string; file_ids?: number[] },
  ): Promise<{ message: Message; created: boolean }> {
    const body = input.body.trim();
    const fileIds = input.file_ids ?? [];
    // The body may be empty when files travel with the message.
    if (!body && fileIds.length === 0) throw new InvalidMessageError('Message cannot be empty');
    if (body.length > MESSAGE_MAX_LENGTH)
      throw new InvalidMessageError(`Message must be at most ${MESSAGE_MAX_LENGTH} characters`);
    // Queued at once, the chat looked up meanwhile: messages are stored in the order they were sent.
    const { message, created } = await this.writer.write({
      chat: this.chatRef(chatId),
      senderId: userId,
      clientId: input.client_id ?? null,
      body,
      fileIds,
    });
    return { message, created };
  }

  /**
   * A chat's row id and kind by public id. They never change while the chat exists, so they are kept (bounded);
   * a chat deleted meanwhile has no members left, which the writer's membership check sees.
   */
  private async chatRef(chatId: string): Promise<ChatRef> {
    const known = this.chatRefs.get(chatId);
    if (known) return known;
    const row = await repo.findChatByPublicId(this.d.db, chatId);
    if (!row) throw new NotFoundError('Chat not found.');
    const ref = { id: row.id, chat_id: row.chat_id, is_private: row.is_private };
    if (this.chatRefs.size >= CHAT_REF_CACHE_SIZE) this.chatRefs.clear();
    this.chatRefs.set(chatId, ref);
    return ref;
  }

  /** Hides the conversation so far for this member only ("clear conversation for me"). */
  async clearForMe(userId: number, chatId: string): Promise<void> {
    const { chat } = await this.requireMember(userId, chatId);
    await repo.clearFor(this.d.db, chat.id, userId);
    this.d.events.emit('unread.changed', { userIds: [userId] });
  }

  /** Stores a short system line ('Ada added Grace') in the chat and delivers it like any message. */
  async announce(chat: ChatRef, text: string): Promise<void> {
    await this.writer.write({ chat, senderId: null, clientId: null, body: text, fileIds: [] });
  }

  private async messageView(id: number, chat: ChatRef): Promise<Message> {
    const [row, members] = await Promise.all([
      repo.messageById(this.d.db, id),
      repo.membersOf(this.d.db, [chat.id]),
    ]);
    if (!row) throw new NotFoundError();
    const files = (await this.d.attachments.filesFor([id])).get(id);
    return toMessage(row, chat.chat_id, marksOf(members), files);
  }

  /**
   * Records that the user has read up to the highest of `ids` in this chat (and so received them). Receipts are
   * written and announced together per chat, a moment later (receipts.ts); a non-member's count for nothing.
   */
  async markRead(userId: number, chatId: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    this.receipts.read(userId, await this.chatRef(chatId), ids);
  }

  /** Records that the user's client received these messages (written like reads). */
  async markDelivered(userId: number, chatId: string, ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    this.receipts.delivered(userId, await this.chatRef(chatId), ids);
  }

  /** Resolves once the receipts reported so far are written (they are written a moment later, receipts.ts). */
  receiptsSettled(): Promise<void> {
    return this.receipts.settled();
  }

  /** Stops writing receipts (the app is closing). */
  close(): void {
    this.receipts.close();
  }

  async totalUnread(userId: number): Promise<number> {
    return (await this.totalsUnread([userId])).get(userId) ?? 0;
  }

  /** totalUnread for many users with one query per 500 of them. */
  async totalsUnread(userIds: number[]): Promise<Map<number, number>> {
    const totals = new Map(userIds.map((id) => [id, 0]));
    for (let i = 0; i < userIds.length; i += 500) {
      for (const r of await repo.unreadTotals(this.d.db, userIds.slice(i, i + 500)))
        if (r.user_id !== null) totals.set(r.user_id, Number(r.n));
    }
    return totals;
  }

  async memberIds(chatId: string): Promise<number[]> {
    const chat = await repo.findChatByPublicId(this.d.db, chatId);
    if (!chat) return [];
    const rows = await repo.membersOf(this.d.db, [chat.id]);
    return rows.flatMap((m) => (m.user_id ? [m.user_id] : []));
  }
}
