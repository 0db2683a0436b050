import {
  isAdminRole,
  MAX_REACTION_EMOJI,
  MESSAGE_TEXT,
  type Message,
  mentionedUsernames,
  type Reaction,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership } from '../chats/chat-membership';
import { firstLink } from '../link-previews/page-meta';
import type { PollsService } from '../polls/polls.service';
import * as repo from './message-changes.repo';
import type { MessageReader } from './message-reader';
import { reactionsByMessage } from './message-view';
import * as reads from './messages.repo';

type Trx = Parameters<typeof repo.lockedMessage>[0];

/** 404 alike for no such message and another chat's. */
function inChat<R extends { chat_id: number }>(row: R | undefined, chatDbId: number): R {
  if (!row || row.chat_id !== chatDbId) throw new NotFoundError(MESSAGE_TEXT.notFound);
  return row;
}

/** A message as one reader sees it: `me` in its reactions is theirs. */
export const forViewer = (message: Message, userId: number): Message => ({
  ...message,
  reactions: message.reactions.map((r) => ({ ...r, me: r.user_ids.includes(userId) })),
});

interface Deps {
  db: Db;
  events: DomainEvents;
  chats: Pick<ChatMembership, 'requireMember' | 'memberNamesIn' | 'ref'>;
  attachments: Pick<AttachmentsService, 'forgetFilesOf' | 'removeKeys'>;
  reader: Pick<MessageReader, 'byId'>;
  /** A message deleted for everyone takes its poll with it. */
  polls: Pick<PollsService, 'removeIn'>;
}

/**
 * Changes to stored messages: edits that keep earlier versions, deletion for everyone, reactions.
 * Each is one transaction, published to the room once it committed.
 */
export class MessageChanges {
  constructor(private readonly deps: Deps) {}

  /** A message of this chat for a change inside `trx`, locked against other changes until it commits. */
  private async messageIn(trx: Trx, chatDbId: number, messageId: number) {
    return inChat(await repo.lockedMessage(trx, messageId), chatDbId);
  }

  /** Replaces the text of the sender's own message; the text it had is kept as an earlier version. */
  async edit(userId: number, chatId: string, messageId: number, body: string): Promise<Message> {
    const { db, chats, events, reader } = this.deps;
    const { chat } = await chats.requireMember(userId, chatId);
    const changed = await db.transaction().execute(async (trx) => {
      const row = await this.messageIn(trx, chat.id, messageId);
      if (row.deleted_at !== null) throw new ConflictError(MESSAGE_TEXT.deleted);
      if (row.sender_id !== userId) throw new ForbiddenError(MESSAGE_TEXT.notYours);
      if (row.body === body) return null;
      const names = body.includes('@') ? (await chats.memberNamesIn(trx, [chat.id])).get(chat.id) : undefined;
      const mentions = mentionedUsernames(body).flatMap((n) => names?.get(n) ?? []);
      await repo.replaceBody(trx, {
        id: messageId,
        previous: row.body,
        body,
        mentions: JSON.stringify(mentions),
        at: new Date().toISOString(),
        dropPreview: firstLink(row.body) !== firstLink(body),
      });
      return { latest: (await reads.latestId(trx, chat.id)) === messageId };
    });
    const message = await reader.byId(messageId, chat);
    if (changed) events.emit('message.updated', { chatId, message, latest: changed.latest });
    return forViewer(message, userId);
  }

  /** Earlier versions of a message, oldest first; any member may read them. */
  async edits(userId: number, chatId: string, messageId: number) {
    const { chat } = await this.deps.chats.requireMember(userId, chatId);
    inChat(await reads.messageById(this.deps.db, messageId), chat.id);
    return repo.editsOf(this.deps.db, messageId);
  }

  /**
   * Deletes a message for everyone: its sender may, and so may a group's admin. Its text, earlier versions,
   * reactions, files and poll are erased, not hidden; the row stays so the room shows where it was.
   */
  async delete(userId: number, chatId: string, messageId: number): Promise<void> {
    const { chat, member } = await this.deps.chats.requireMember(userId, chatId);
    const mayModerate = !chat.is_private && isAdminRole(member.role);
    await this.erase(chat.id, chatId, messageId, (row) => {
      if (row.sender_id !== userId && !mayModerate) throw new ForbiddenError(MESSAGE_TEXT.cannotDelete);
    });
  }

  /**
   * Deletes a message for everyone on a site admin's word (a report's resolution), in any chat: the same erasing
   * and the same `message.deleted`, so the room hears it as it hears any deletion. 404 when there is no such
   * message in that chat.
   */
  async deleteByOperator(chatId: string, messageId: number): Promise<void> {
    const chat = await this.deps.chats.ref(chatId);
    await this.erase(chat.id, chatId, messageId, () => {});
  }

  private async erase(
    chatDbId: number,
    chatId: string,
    messageId: number,
    allow: (row: { sender_id: number | null }) => void,
  ): Promise<void> {
    const { db, events, attachments, polls } = this.deps;
    const erased = await db.transaction().execute(async (trx) => {
      const row = await this.messageIn(trx, chatDbId, messageId);
      allow(row);
      if (row.deleted_at !== null) return null;
      const files = await attachments.forgetFilesOf(trx, messageId);
      if (row.has_poll) await polls.removeIn(trx, messageId);
      await repo.eraseMessage(trx, messageId, new Date().toISOString());
      return { files, latest: (await reads.latestId(trx, chatDbId)) === messageId };
    });
    if (erased === null) return;
    await attachments.removeKeys(erased.files);
    events.emit('message.deleted', { chatId, messageId, latest: erased.latest });
  }

  /** Adds (`on`) or takes back one's reaction; doing it twice changes nothing. Answers the reactions as they stand. */
  async react(userId: number, chatId: string, messageId: number, emoji: string, on: boolean) {
    const { db, chats, events } = this.deps;
    const { chat } = await chats.requireMember(userId, chatId);
    const changed = await db.transaction().execute(async (trx) => {
      const row = await this.messageIn(trx, chat.id, messageId);
      if (row.deleted_at !== null) throw new ConflictError(MESSAGE_TEXT.deleted);
      const reaction = { message_id: messageId, user_id: userId, emoji };
      if (!on) return repo.removeReaction(trx, reaction);
      const present = await repo.emojiOf(trx, messageId);
      if (!present.includes(emoji) && present.length >= MAX_REACTION_EMOJI)
        throw new BadRequestError(MESSAGE_TEXT.tooManyEmoji);
      return repo.addReaction(trx, { ...reaction, created_at: new Date().toISOString() });
    });
    const reactions: Reaction[] =
      reactionsByMessage(await reads.reactionsOf(db, [messageId]), 0).get(messageId) ?? [];
    if (changed) events.emit('reactions.updated', { chatId, messageId, reactions });
    return {
      message_id: messageId,
      reactions: reactions.map((r) => ({ ...r, me: r.user_ids.includes(userId) })),
    };
  }
}
