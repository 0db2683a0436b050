import { MAX_DB_ID, MESSAGE_TEXT, SAVED_PAGE_SIZE, type SavedInChat, type SavedPage } from '@parley/protocol';
import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import type { ChatsService } from '../chats/chats.service';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './saved.repo';

interface Deps {
  db: Db;
  chats: Pick<ChatsService, 'requireMember' | 'summaries'>;
  messages: Pick<MessagesService, 'visibleTo' | 'viewMany'>;
}

/**
 * Saved messages: a person's own bookmarks of messages they can read, seen by nobody else. What they can no
 * longer read (a message deleted for everyone, a chat they left) drops out of the list; the row stays until they
 * unsave it, or the message, the chat or the account goes (the foreign keys take it then).
 */
export class SavedService {
  constructor(private readonly deps: Deps) {}

  /** Saves a message the person can read; saving it again changes nothing. 404 for anything else. */
  async save(userId: number, messageId: number): Promise<void> {
    const { message } = await this.deps.messages.visibleTo(userId, messageId);
    if (message.is_deleted) throw new NotFoundError(MESSAGE_TEXT.notFound);
    await repo.save(this.deps.db, {
      user_id: userId,
      message_id: messageId,
      saved_at: new Date().toISOString(),
    });
  }

  /** Takes a message off the person's list; one not on it changes nothing. */
  async unsave(userId: number, messageId: number): Promise<void> {
    await repo.unsave(this.deps.db, userId, messageId);
  }

  /** A page of the person's saved messages, newest saved first, each with its chat as their chat list names it. */
  async list(userId: number, cursor?: string): Promise<SavedPage> {
    const { db, chats, messages } = this.deps;
    const before = cursor === undefined ? null : Math.min(Number(cursor), MAX_DB_ID);
    const rows = await repo.readablePage(db, userId, before, SAVED_PAGE_SIZE + 1);
    const page = rows.slice(0, SAVED_PAGE_SIZE);
    const names = await chats.summaries(userId, [...new Set(page.map((r) => r.chat_id))]);
    const hits = page.flatMap((r) => {
      const chat = names.get(r.chat_id);
      return chat
        ? [{ id: r.message_id, chat: { ...chat, id: r.chat_id, is_private: chat.is_private ? 1 : 0 } }]
        : [];
    });
    const shown = await messages.viewMany(userId, hits);
    const results = page.flatMap((r) => {
      const message = shown.get(r.message_id);
      const chat = names.get(r.chat_id);
      if (!message || !chat) return [];
      return [
        {
          message,
          chat_id: chat.chat_id,
          chat_name: chat.display_name,
          is_private: chat.is_private,
          saved_at: r.saved_at,
        },
      ];
    });
    const last = page.at(-1);
    return { results, next_cursor: rows.length > SAVED_PAGE_SIZE && last ? String(last.id) : null };
  }

  /** Which of a chat's messages the person saved (their menu offers Unsave on those). */
  async savedIn(userId: number, chatId: string): Promise<SavedInChat> {
    const { chat, member } = await this.deps.chats.requireMember(userId, chatId);
    return { message_ids: await repo.savedIn(this.deps.db, userId, chat.id, member.cleared_before_id) };
  }
}
