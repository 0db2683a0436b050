import { VOICE_TEXT } from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership } from '../chats/chat-membership';
import { messageById } from './messages.repo';

interface Deps {
  db: Db;
  events: DomainEvents;
  membership: Pick<ChatMembership, 'requireMember' | 'pageMembers'>;
  attachments: Pick<AttachmentsService, 'markVoicePlayed'>;
}

/**
 * A voice message's played mark, a receipt of its own: in a private chat, the person it was sent to playing it
 * marks its voice files played (PUT …/messages/{id}/played/). Rare and one at a time, so it is an HTTP call,
 * written at once, unlike the read marks that every message brings (receipts.ts). Like reads, it is not told by
 * someone who hides read receipts. The first mark publishes `voice.played` (→ `voice_played` to the room); a
 * second call changes nothing.
 */
export class VoicePlayed {
  constructor(private readonly deps: Deps) {}

  async mark(userId: number, chatId: string, messageId: number): Promise<void> {
    const { db, membership, attachments, events } = this.deps;
    const { chat } = await membership.requireMember(userId, chatId);
    const message = await messageById(db, messageId);
    if (!message || message.chat_id !== chat.id || message.deleted_at !== null)
      throw new NotFoundError('Message not found.');
    if (!chat.is_private) throw new BadRequestError(VOICE_TEXT.onlyPrivate);
    if (message.sender_id === userId || message.kind !== 'user')
      throw new ForbiddenError(VOICE_TEXT.onlyRecipient);
    const members = await membership.pageMembers(chat.id);
    // Someone who hides read receipts has nothing stored, but a message without a voice message is refused alike.
    const tells = !!members.find((m) => m.user_id === userId)?.read_receipt;
    const { voice, marked } = await attachments.markVoicePlayed(messageId, tells);
    if (!voice) throw new BadRequestError(VOICE_TEXT.notVoice);
    if (marked.length > 0)
      events.emit('voice.played', { chatId: chat.chat_id, messageId, fileIds: marked, userId });
  }
}
