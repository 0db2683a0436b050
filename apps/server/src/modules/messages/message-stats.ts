import type { Db } from '../../db/database';
import type { ChatActivity } from '../chats/chats.service';
import * as repo from './message-stats.repo';
import { latestId } from './messages.repo';
import { unreadThreadRepliesPerChat, unreadThreadTotals } from './threads.repo';

/** What other modules read of the messages table: counts, last messages and unread counts. */
export class MessageStats implements ChatActivity {
  constructor(private readonly db: Db) {}

  /** Every person's messages, system lines left out (the home page's statistics). */
  totalMessages(): Promise<number> {
    return repo.countUserMessages(this.db);
  }

  /** People's messages per UTC day since `since` (days without any are absent). */
  perDay(since: string) {
    return repo.countPerDay(this.db, since);
  }

  /** The newest message of each chat, passing over those of `exceptSenders` (whom the reader blocked). */
  lastMessages(chatDbIds: number[], exceptSenders: number[] = []) {
    return repo.lastMessages(this.db, chatDbIds, exceptSenders);
  }

  unreadIn(chatDbId: number, userId: number, marks: { lastRead: number; clearedBefore: number }) {
    return repo.unreadIn(this.db, chatDbId, userId, marks);
  }

  /** The chats (row ids) where an unread message mentions this person. */
  async mentionedIn(userId: number): Promise<Set<number>> {
    return new Set(await repo.chatsMentioningUnread(this.db, userId));
  }

  latestId(chatDbId: number): Promise<number> {
    return latestId(this.db, chatDbId);
  }

  /** Unread messages per chat (by row id) for one person. */
  async unreadCounts(userId: number): Promise<Map<number, number>> {
    const rows = await repo.unreadCounts(this.db, userId);
    return new Map(rows.map((u) => [u.chat_id, Number(u.n)]));
  }

  /**
   * Unread messages over all chats for one person (what their notification_count says), with the unread
   * replies of the threads they follow.
   */
  async unreadTotal(userId: number): Promise<number> {
    const [[row], [replies]] = await Promise.all([
      repo.unreadTotalOf(this.db, { user: userId, now: new Date().toISOString() }),
      unreadThreadTotals(this.db, [userId]),
    ]);
    return Number(row?.n ?? 0) + Number(replies?.n ?? 0);
  }

  /** Unread messages and followed replies over all chats for many people, two queries per 500 of them. */
  async unreadTotals(userIds: number[]): Promise<Map<number, number>> {
    const totals = new Map(userIds.map((id) => [id, 0]));
    for (let i = 0; i < userIds.length; i += 500) {
      const some = userIds.slice(i, i + 500);
      const [messages, replies] = await Promise.all([
        repo.unreadTotals(this.db, some),
        unreadThreadTotals(this.db, some),
      ]);
      for (const r of [...messages, ...replies])
        if (r.user_id !== null) totals.set(r.user_id, (totals.get(r.user_id) ?? 0) + Number(r.n));
    }
    return totals;
  }

  /** Unread replies of followed threads per chat (row id) for one person (the missed-message mail). */
  async unreadRepliesPerChat(userId: number): Promise<Map<number, number>> {
    const rows = await unreadThreadRepliesPerChat(this.db, userId);
    return new Map(rows.map((r) => [r.chat_id, Number(r.n)]));
  }
}
