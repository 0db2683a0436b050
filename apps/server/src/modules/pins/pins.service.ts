import {
  isAdminRole,
  MAX_PINS_PER_CHAT,
  MESSAGE_TEXT,
  type Message,
  PIN_TEXT,
  type PinsState,
  pinnedLine,
} from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DialectName } from '../../db/database';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEventMap, DomainEvents } from '../../platform/events';
import { jobLog } from '../../platform/job-log';
import type { Lifecycle } from '../../platform/lifecycle';
import type { UsersService } from '../accounts/users.service';
import type { ChatRef } from '../chats/chat-membership';
import type { ChatRow } from '../chats/chats.repo';
import type { ChatsService } from '../chats/chats.service';
import { personName } from '../chats/group-access';
import type { MessagesService } from '../messages/messages.service';
import * as repo from './pins.repo';

interface Deps {
  db: Db;
  dialect: DialectName;
  events: DomainEvents;
  /** The unpinning of a deleted message is counted in, so a stop waits for it. */
  lifecycle: Pick<Lifecycle, 'track'>;
  log: FastifyBaseLogger;
  chats: Pick<ChatsService, 'requireReader'>;
  messages: Pick<MessagesService, 'visibleTo' | 'viewMany' | 'announce'>;
  users: Pick<UsersService, 'findActivated'>;
}

const refOf = (chat: ChatRow): ChatRef => ({
  id: chat.id,
  chat_id: chat.chat_id,
  is_private: chat.is_private,
});

/**
 * Pinned messages: up to MAX_PINS_PER_CHAT of a chat's messages that its room shows at the top. Anyone in a
 * private chat pins and unpins, in a group its owner and admins; whoever reads the chat reads its pins. Each
 * change is announced to the room ('pins.updated'), a pin with a system line too, and a message deleted for
 * everyone is unpinned.
 */
export class PinsService {
  /** Per account being deleted, the chats whose pins go with it: told their pins once its rows are gone. */
  private readonly leaving = new Map<number, { id: number; chat_id: string }[]>();

  constructor(private readonly deps: Deps) {
    const { events, lifecycle, log, db } = deps;
    events.on('user.deleted', async ({ userId }) => {
      this.leaving.set(userId, await repo.chatsWithPinsOf(db, userId));
    });
    events.on('account.deleted', ({ userId }) => {
      const chats = this.leaving.get(userId) ?? [];
      this.leaving.delete(userId);
      void lifecycle
        .track(Promise.all(chats.map(async (chat) => this.announce(await this.stateOf(chat)))))
        .catch((err) => {
          jobLog(log, 'pins of a deleted account').error(
            { err },
            'telling the pins of a deleted account failed',
          );
        });
    });
    events.on('message.deleted', (e) => {
      void lifecycle.track(this.unpinDeleted(e)).catch((err) => {
        jobLog(log, 'unpin deleted message').error({ err }, 'unpinning a deleted message failed');
      });
    });
  }

  /** The chat's pinned messages as the reader's history shows them, newest pin first. */
  async list(userId: number, chatId: string): Promise<Message[]> {
    const { chat, member } = await this.deps.chats.requireReader(userId, chatId);
    const clearedBefore = member?.cleared_before_id ?? 0;
    const ids = (await repo.pinnedIds(this.deps.db, chat.id)).filter((id) => id > clearedBefore);
    const ref = refOf(chat);
    const shown = await this.deps.messages.viewMany(
      userId,
      ids.map((id) => ({ id, chat: ref })),
    );
    return ids.flatMap((id) => shown.get(id) ?? []);
  }

  /** Pins a message of the chat; pinning it again changes nothing. */
  async pin(userId: number, chatId: string, messageId: number): Promise<PinsState> {
    const { db, messages } = this.deps;
    const chat = await this.requirePinner(userId, chatId);
    const message = await this.messageIn(userId, chat, messageId);
    if (message.is_deleted) throw new ConflictError(MESSAGE_TEXT.deleted);
    if (message.kind === 'system' || (message.thread_root !== null && !message.also_in_chat))
      throw new BadRequestError(PIN_TEXT.notPinnable);
    const added = await db.transaction().execute(async (trx) => {
      const pin = { chat_id: chat.id, message_id: messageId, pinned_by: userId };
      await repo.lockChatPins(trx, this.deps.dialect, chat.id);
      if (!(await repo.addPin(trx, { ...pin, pinned_at: new Date().toISOString() }))) return false;
      if ((await repo.pinCount(trx, chat.id)) > MAX_PINS_PER_CHAT)
        throw new BadRequestError(PIN_TEXT.tooMany);
      return true;
    });
    const state = await this.stateOf(chat);
    if (added) {
      this.announce(state);
      await messages.announce(refOf(chat), pinnedLine(await personName(this.deps.users, userId)));
    }
    return state;
  }

  /** Unpins a message of the chat; unpinning one that is not pinned changes nothing. */
  async unpin(userId: number, chatId: string, messageId: number): Promise<PinsState> {
    const chat = await this.requirePinner(userId, chatId);
    const removed = await repo.removePin(this.deps.db, chat.id, messageId);
    // Nothing was pinned: still a 404 for what is no message of this chat.
    if (!removed) await this.messageIn(userId, chat, messageId);
    const state = await this.stateOf(chat);
    if (removed) this.announce(state);
    return state;
  }

  /** The chat, when the caller may pin in it: a member of a private chat, the owner or an admin of a group. */
  private async requirePinner(userId: number, chatId: string): Promise<ChatRow> {
    const { chat, member } = await this.deps.chats.requireReader(userId, chatId);
    if (!member || (!chat.is_private && !isAdminRole(member.role)))
      throw new ForbiddenError(PIN_TEXT.onlyAdmins);
    return chat;
  }

  /** The message as the caller sees it; 404 alike for no such message, another chat's and one they cleared. */
  private async messageIn(userId: number, chat: ChatRow, messageId: number): Promise<Message> {
    const found = await this.deps.messages.visibleTo(userId, messageId);
    if (found.chat.id !== chat.id) throw new NotFoundError(MESSAGE_TEXT.notFound);
    return found.message;
  }

  private async stateOf(chat: Pick<ChatRow, 'id' | 'chat_id'>): Promise<PinsState> {
    return { chat_id: chat.chat_id, pinned_ids: await repo.pinnedIds(this.deps.db, chat.id) };
  }

  private announce(state: PinsState): void {
    this.deps.events.emit('pins.updated', { chatId: state.chat_id, pinnedIds: state.pinned_ids });
  }

  /** A message deleted for everyone is unpinned; the room hears of it when it was pinned. */
  private async unpinDeleted({ chatId, messageId }: DomainEventMap['message.deleted']): Promise<void> {
    const chatDbId = await repo.unpinMessage(this.deps.db, messageId);
    if (chatDbId === undefined) return;
    this.deps.events.emit('pins.updated', {
      chatId,
      pinnedIds: await repo.pinnedIds(this.deps.db, chatDbId),
    });
  }
}
