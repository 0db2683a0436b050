import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import * as channelsRepo from './channels.repo';
import type { ChatRow, Executor } from './chats.repo';
import * as repo from './chats.repo';
import * as mutesRepo from './mutes.repo';

/** What the messages module needs of a chat: its row id, public id and kind never change while it exists. */
export interface ChatRef {
  id: number;
  chat_id: string;
  is_private: number;
}

const CHAT_REF_CACHE_SIZE = 10_000;

/** A group anyone signed in may find, preview and join. */
export const isPublicGroup = (chat: Pick<ChatRow, 'is_private' | 'visibility'>): boolean =>
  !chat.is_private && chat.visibility === 'public';

/**
 * Who is in a chat, and the members' marks: the membership check every chat and message call starts with, and
 * what the messages module reads and moves of chats and members (inside its own transactions where it writes).
 */
/**
 * No chat id holds a NUL character, and PostgreSQL refuses to compare text holding one (an error, not "no row"):
 * such an id names no chat, as any other unknown id does.
 */
function noSuchChatIfMalformed(chatId: string): void {
  if (chatId.includes('\u0000')) throw new NotFoundError('Chat not found.');
}

export class ChatMembership {
  private readonly refs = new Map<string, ChatRef>();

  constructor(private readonly db: Db) {}

  /** The chat and the caller's membership; 404 alike for no such chat and not a member. */
  async requireMember(userId: number, chatId: string) {
    noSuchChatIfMalformed(chatId);
    const found = await repo.findChatWithMembership(this.db, chatId, userId);
    if (!found) throw new NotFoundError('Chat not found.');
    return found;
  }

  /**
   * The chat for someone who may read it: a member (with their membership), or anyone signed in when it is a
   * public group (member null: they preview it). 404 alike for no such chat and a private one they are not in.
   */
  async requireReader(userId: number, chatId: string) {
    noSuchChatIfMalformed(chatId);
    const found = await repo.findChatWithMembership(this.db, chatId, userId);
    if (found) return found;
    const chat = await repo.findChatByPublicId(this.db, chatId);
    if (!chat || !isPublicGroup(chat)) throw new NotFoundError('Chat not found.');
    return { chat, member: null };
  }

  /**
   * A chat's row id and kind by public id. They never change while the chat exists, so they are kept (bounded);
   * a chat deleted meanwhile has no members left, which the writer's membership check sees.
   */
  async ref(chatId: string): Promise<ChatRef> {
    const known = this.refs.get(chatId);
    if (known) return known;
    noSuchChatIfMalformed(chatId);
    const row = await repo.findChatByPublicId(this.db, chatId);
    if (!row) throw new NotFoundError('Chat not found.');
    const ref = { id: row.id, chat_id: row.chat_id, is_private: row.is_private };
    if (this.refs.size >= CHAT_REF_CACHE_SIZE) this.refs.clear();
    this.refs.set(chatId, ref);
    return ref;
  }

  /** A chat's ref by its row id (a message names its chat so); 404 when it is gone. */
  async refByRowId(chatDbId: number): Promise<ChatRef> {
    const [row] = await repo.chatsByIds(this.db, [chatDbId]);
    if (!row) throw new NotFoundError('Chat not found.');
    return { id: row.id, chat_id: row.chat_id, is_private: row.is_private };
  }

  /** Every member's user id of each chat, read inside the caller's transaction (the writer's membership check). */
  memberIdsIn(trx: Executor, chatDbIds: number[]): Promise<Map<number, number[]>> {
    return repo.memberIdsOf(trx, chatDbIds);
  }

  /** Each chat's members by lower-cased username, read inside the caller's transaction (mentions). */
  memberNamesIn(trx: Executor, chatDbIds: number[]): Promise<Map<number, Map<string, number>>> {
    return repo.memberNamesOf(trx, chatDbIds);
  }

  /** The members of each chat who have it muted now: no push, mail or browser notification for them. */
  mutedIn(chatDbIds: number[], now = new Date().toISOString()): Promise<Map<number, Set<number>>> {
    return mutesRepo.mutedMembersOf(this.db, chatDbIds, now);
  }

  /** Sets each chat's last activity, inside the caller's transaction. */
  touch(trx: Executor, at: Map<number, string>): Promise<void> {
    return repo.touchChats(trx, at);
  }

  /** The members a history page shows and ticks by: marks, receipt setting, name and avatar. */
  pageMembers(chatDbId: number) {
    return repo.pageMembersOf(this.db, chatDbId);
  }

  /**
   * A history page's chat and members, and the reader's own row among them (where their page starts); 404
   * alike for no such chat and not a member, as requireMember. One statement once the chat is known (ref).
   */
  async pageAccess(userId: number, chatId: string) {
    const chat = await this.ref(chatId);
    const members = await repo.pageMembersOf(this.db, chat.id);
    const reader = members.find((m) => m.user_id === userId) ?? (await this.previewer(chat.id));
    return { chat, members, reader };
  }

  /** Someone outside a public group reads all of it; outside any other chat, nothing (404 as for a member). */
  private async previewer(chatDbId: number) {
    const [chat] = await repo.chatsByIds(this.db, [chatDbId]);
    if (!chat || !isPublicGroup(chat)) throw new NotFoundError('Chat not found.');
    return { cleared_before_id: 0 };
  }

  /**
   * Who may post in each of these chats when only some may (announcement channels: the owner and admins), read
   * inside the caller's transaction (the writer's check); a chat open to every member has no entry.
   */
  restrictedPostersIn(trx: Executor, chatDbIds: number[]): Promise<Map<number, Set<number>>> {
    return channelsRepo.restrictedPostersOf(trx, chatDbIds);
  }

  /** Moves members' read (and so delivered) marks and delivered marks forward, never back, in one transaction. */
  async advanceMarks(chatDbId: number, read: Map<number, number>, delivered: Map<number, number>) {
    await this.db.transaction().execute(async (trx) => {
      for (const [userId, upTo] of read) await repo.advanceRead(trx, chatDbId, userId, upTo);
      for (const [userId, upTo] of delivered) await repo.advanceDelivered(trx, chatDbId, userId, upTo);
    });
  }
}
