import {
  type FollowedThreads,
  MESSAGE_TEXT,
  THREAD_LAST_REPLIES,
  THREADS_PAGE_SIZE,
  type ThreadPage,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import type { MessageReader } from './message-reader';
import * as messagesRepo from './messages.repo';
import type { NewestPages } from './newest-pages';
import * as repo from './threads.repo';

/** How a person's chat list names chats (row ids): the chats module's, given to the messages module. */
export type ChatNames = (
  userId: number,
  chatDbIds: number[],
) => Promise<Map<number, { chat_id: string; display_name: string; is_private: boolean }>>;

interface Deps {
  db: Db;
  events: DomainEvents;
  membership: ChatMembership;
  reader: Pick<MessageReader, 'rows'>;
  chatNames: ChatNames;
  /**
   * Pages kept while the stored messages are unchanged (SQLite), shared with the history: a thread's first page
   * is what everyone opening it reads. Read every time without it.
   */
  pages?: NewestPages;
}

/**
 * Reading threads and following them. Replies are written by the group commit (message-writer.ts), which also
 * counts them on their roots and makes their authors follow; this is the rest: a thread's pages, follow and
 * unfollow, a follower's read mark, and the threads a person follows.
 */
export class Threads {
  constructor(private readonly deps: Deps) {}

  /** A page of a thread's replies, oldest first, for whoever may read the chat (a public group's previewer too). */
  async page(
    userId: number,
    chatId: string,
    rootId: number,
    q: { cursor?: string; limit: number },
  ): Promise<ThreadPage> {
    const { chat, members, reader } = await this.deps.membership.pageAccess(userId, chatId);
    const root = await this.rootIn(chat, rootId, reader.cleared_before_id);
    const after = Math.max(Number(q.cursor ?? 0), reader.cleared_before_id);
    const read = () => repo.threadReplies(this.deps.db, rootId, after, q.limit + 1);
    const { pages } = this.deps;
    const [replies, follow] = await Promise.all([
      q.cursor === undefined && pages ? pages.get(`thread:${rootId}:${after}:${q.limit}`, read) : read(),
      repo.followOf(this.deps.db, rootId, userId),
    ]);
    const more = replies.length > q.limit;
    const shown = more ? replies.slice(0, q.limit) : replies;
    const [rootMessage, ...results] = await this.deps.reader.rows(chat, userId, [root, ...shown], members);
    return {
      root: rootMessage as ThreadPage['root'],
      results,
      next_cursor: more ? String(shown.at(-1)?.id) : null,
      following: follow?.following === 1,
    };
  }

  /** Starts or stops following a thread of a chat the person is in. */
  async follow(userId: number, chatId: string, rootId: number, following: boolean): Promise<void> {
    const { chat, member } = await this.deps.membership.requireMember(userId, chatId);
    await this.rootIn(
      { id: chat.id, chat_id: chat.chat_id, is_private: chat.is_private },
      rootId,
      member.cleared_before_id,
    );
    await repo.setFollowing(this.deps.db, rootId, userId, following);
    this.deps.events.emit('unread.changed', { userIds: [userId] });
  }

  /**
   * The person read these replies of a thread: their read mark in it moves to the newest of them that is a
   * reply there. The chat's own read marks are not the thread's: they stay.
   */
  async markRead(userId: number, chat: ChatRef, rootId: number, ids: number[]): Promise<void> {
    const replies = await messagesRepo.repliesAmong(this.deps.db, chat.id, rootId, ids);
    const upTo = Math.max(0, ...replies);
    if (upTo > 0 && (await repo.markThreadRead(this.deps.db, rootId, userId, upTo)))
      this.deps.events.emit('unread.changed', { userIds: [userId] });
  }

  /** The threads a person follows, newest activity first, each with its newest replies and unread count. */
  async followed(userId: number, cursor?: string): Promise<FollowedThreads> {
    const { db } = this.deps;
    const offset = Number(cursor ?? 0);
    const rows = await repo.followedThreads(db, userId, offset, THREADS_PAGE_SIZE + 1);
    const page = rows.slice(0, THREADS_PAGE_SIZE);
    if (page.length === 0) return { results: [], next_cursor: null };
    const rootIds = page.map((r) => r.root_id);
    const [names, unread, roots, latest] = await Promise.all([
      this.deps.chatNames(userId, [...new Set(page.map((r) => r.chat_id))]),
      repo.unreadPerThread(db, userId, rootIds),
      Promise.all(page.map((r) => messagesRepo.messageById(db, r.root_id))),
      Promise.all(page.map((r) => repo.newestReplies(db, r.root_id, THREAD_LAST_REPLIES))),
    ]);
    const unreadOf = new Map(unread.map((u) => [u.root_id, Number(u.n)]));
    const results = await Promise.all(
      page.map(async (r, i) => {
        const name = names.get(r.chat_id);
        const root = roots[i];
        if (!name || !root) return [];
        const chat = { id: r.chat_id, chat_id: name.chat_id, is_private: name.is_private ? 1 : 0 };
        const [rootMessage, ...lastReplies] = await this.deps.reader.rows(chat, userId, [
          root,
          ...(latest[i] ?? []),
        ]);
        return [
          {
            chat_id: name.chat_id,
            chat_name: name.display_name,
            is_private: name.is_private,
            root: rootMessage as ThreadPage['root'],
            last_replies: lastReplies,
            unread_count: unreadOf.get(r.root_id) ?? 0,
          },
        ];
      }),
    );
    return {
      results: results.flat(),
      next_cursor: rows.length > THREADS_PAGE_SIZE ? String(offset + THREADS_PAGE_SIZE) : null,
    };
  }

  /** A root of this chat the reader may see: a message in no thread, past what they cleared; else 404. */
  private async rootIn(chat: ChatRef, rootId: number, clearedBefore: number) {
    const root = await messagesRepo.messageById(this.deps.db, rootId);
    if (!root || root.chat_id !== chat.id || root.thread_root_id !== null || root.id <= clearedBefore)
      throw new NotFoundError(MESSAGE_TEXT.notFound);
    return root;
  }
}
