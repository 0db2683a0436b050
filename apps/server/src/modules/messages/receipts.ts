import type { Db } from '../../db/database';
import type { DomainEvents } from '../../platform/events';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import { marksOf, ticks } from './message-view';
import * as repo from './messages.repo';

/** After a chat's receipts were written, later ones gather this long and are written together. */
const RECEIPT_WINDOW_MS = 100;

interface ChatReceipts {
  chat: ChatRef;
  /** Per user, the ids reported read (read moves the delivered mark too) and the ids reported delivered. */
  reads: Map<number, number[]>;
  delivered: Map<number, number[]>;
}

interface Deps {
  db: Db;
  events: DomainEvents;
  chats: Pick<ChatMembership, 'pageMembers' | 'advanceMarks'>;
  onError: (err: unknown) => void;
  windowMs?: number;
}

/**
 * Read and delivery receipts, coalesced per chat (DESIGN §8). Every member acknowledges every message, so a
 * busy room would cost several queries and two room broadcasts per member per message. Instead the first
 * receipts after a quiet spell are written at once, and what arrives during the next 100 ms is written together:
 * one look-up of the reported messages, one of the members, one transaction moving every reporter's marks, one
 * `messages_delivered` to the room and one `messages_read` per reader whose receipts are on.
 */
export class ReceiptBatcher {
  private readonly pending = new Map<number, ChatReceipts>();
  /** Chats being written or written within the last window (null while the write runs): their next receipts wait. */
  private readonly cooling = new Map<number, NodeJS.Timeout | null>();
  /** Writes under way. */
  private readonly writing = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: Deps) {}

  read(userId: number, chat: ChatRef, ids: number[]): void {
    this.add('reads', userId, chat, ids);
  }

  delivered(userId: number, chat: ChatRef, ids: number[]): void {
    this.add('delivered', userId, chat, ids);
  }

  /** Resolves once every receipt reported so far has been written (or the batcher closed). */
  async settled(): Promise<void> {
    while (!this.closed && (this.pending.size > 0 || this.writing.size > 0)) {
      if (this.writing.size > 0) await Promise.allSettled(this.writing);
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Writes nothing more; receipts still gathering are dropped (clients report them again on reconnect). */
  close(): void {
    this.closed = true;
    for (const timer of this.cooling.values()) if (timer) clearTimeout(timer);
    this.cooling.clear();
    this.pending.clear();
  }

  private add(kind: 'reads' | 'delivered', userId: number, chat: ChatRef, ids: number[]): void {
    if (this.closed || ids.length === 0) return;
    let entry = this.pending.get(chat.id);
    if (!entry) {
      entry = { chat, reads: new Map(), delivered: new Map() };
      this.pending.set(chat.id, entry);
      if (!this.cooling.has(chat.id)) setImmediate(() => this.flush(chat.id));
    }
    const list = entry[kind].get(userId);
    if (list) list.push(...ids);
    else entry[kind].set(userId, [...ids]);
  }

  /** Writes a chat's receipts; the chat's next ones wait until this write is done and a window has passed. */
  private flush(chatDbId: number): void {
    const entry = this.pending.get(chatDbId);
    if (this.closed || !entry) return;
    this.pending.delete(chatDbId);
    this.cooling.set(chatDbId, null);
    const write = this.write(entry).catch(this.deps.onError);
    this.writing.add(write);
    void write.then(() => {
      this.writing.delete(write);
      if (this.closed) return;
      const timer = setTimeout(() => {
        this.cooling.delete(chatDbId);
        if (this.pending.has(chatDbId)) this.flush(chatDbId);
      }, this.deps.windowMs ?? RECEIPT_WINDOW_MS);
      timer.unref();
      this.cooling.set(chatDbId, timer);
    });
  }

  private async write({ chat, reads, delivered }: ChatReceipts): Promise<void> {
    const reported = [...new Set([...reads.values(), ...delivered.values()].flat())];
    const [messages, members] = await Promise.all([
      repo.messagesInChat(this.deps.db, chat.id, reported),
      this.deps.chats.pageMembers(chat.id),
    ]);
    const senderOf = new Map(messages.map((m) => [m.id, m.sender_id]));
    const marks = marksOf(members);
    const markOf = new Map(marks.map((m) => [m.userId, m]));

    // Only members' receipts count, only for this chat's messages, and only for others' messages.
    const othersOf = (userId: number, ids: number[]) =>
      ids.filter((id) => senderOf.has(id) && senderOf.get(id) !== userId);
    const readUpTo = new Map<number, number>();
    const deliveredUpTo = new Map<number, number>();
    const freshlyDelivered = new Set<number>();
    for (const [userId, ids] of reads) {
      const others = othersOf(userId, ids);
      if (!markOf.has(userId) || others.length === 0) continue;
      readUpTo.set(userId, Math.max(...others));
      for (const id of others) freshlyDelivered.add(id);
    }
    for (const [userId, ids] of delivered) {
      const mark = markOf.get(userId);
      const fresh = mark ? othersOf(userId, ids).filter((id) => id > mark.lastDelivered) : [];
      if (fresh.length === 0) continue;
      deliveredUpTo.set(userId, Math.max(...fresh));
      for (const id of fresh) freshlyDelivered.add(id);
    }
    if (readUpTo.size === 0 && deliveredUpTo.size === 0) return;

    await this.deps.chats.advanceMarks(chat.id, readUpTo, deliveredUpTo);
    // The marks as they now stand, for deciding which reported messages became read for their senders.
    for (const [userId, upTo] of readUpTo) {
      const mark = markOf.get(userId);
      if (mark) {
        mark.lastRead = Math.max(mark.lastRead, upTo);
        mark.lastDelivered = Math.max(mark.lastDelivered, upTo);
      }
    }
    for (const [userId, upTo] of deliveredUpTo) {
      const mark = markOf.get(userId);
      if (mark) mark.lastDelivered = Math.max(mark.lastDelivered, upTo);
    }

    if (freshlyDelivered.size > 0)
      this.deps.events.emit('messages.delivered', {
        chatId: chat.chat_id,
        messageIds: [...freshlyDelivered].sort((a, b) => a - b),
      });
    for (const userId of readUpTo.keys()) {
      if (!markOf.get(userId)?.readReceipt) continue;
      const nowRead = othersOf(userId, reads.get(userId) ?? []).filter(
        (id) => ticks(id, senderOf.get(id) ?? null, marks).is_read,
      );
      if (nowRead.length > 0)
        this.deps.events.emit('messages.read', {
          chatId: chat.chat_id,
          userId,
          messageIds: [...new Set(nowRead)].sort((a, b) => a - b),
          deliveredIds: [],
        });
    }
    if (readUpTo.size > 0) this.deps.events.emit('unread.changed', { userIds: [...readUpTo.keys()] });
  }
}
