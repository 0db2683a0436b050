import { FORWARD_TEXT, type Message } from '@parley/protocol';
import type { Db } from '../../db/database';
import { ConflictError, NotFoundError } from '../../platform/errors';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import type { PollsService } from '../polls/polls.service';
import type { BlocksService } from '../safety/blocks.service';
import { type Pending, refusalOf } from './message-batch';
import type { MessageWriter } from './message-writer';
import { messageById } from './messages.repo';

interface Deps {
  db: Db;
  membership: Pick<ChatMembership, 'requireMember' | 'memberIdsIn' | 'restrictedPostersIn'>;
  blocks: Pick<BlocksService, 'blocksInvolving'>;
  writer: Pick<MessageWriter, 'write'>;
  /** A forwarded poll asks its question again, with no votes. */
  polls: Pick<PollsService, 'inputOf'>;
}

/**
 * Forwarding a message to up to five chats: each copy is a new message of the person who forwarded it, marked
 * forwarded, with the same body and files (new rows naming the same stored objects), and a poll asked afresh.
 * Nothing tells where it came from. Every target is checked with the writer's own rules before any copy is written, so a refusal for
 * one sends nothing to any.
 */
export class Forwarding {
  constructor(private readonly deps: Deps) {}

  async forward(userId: number, chatId: string, messageId: number, toChatIds: string[]): Promise<Message[]> {
    const { db, membership, blocks, writer, polls } = this.deps;
    const { chat } = await membership.requireMember(userId, chatId);
    const source = Number.isSafeInteger(messageId) ? await messageById(db, messageId) : undefined;
    if (!source || source.chat_id !== chat.id || source.kind !== 'user')
      throw new NotFoundError('Message not found.');
    if (source.deleted_at) throw new ConflictError(FORWARD_TEXT.deleted);

    const targets: ChatRef[] = [];
    for (const id of new Set(toChatIds)) {
      const found = await membership.requireMember(userId, id);
      targets.push({ id: found.chat.id, chat_id: found.chat.chat_id, is_private: found.chat.is_private });
    }
    const poll = source.has_poll ? await polls.inputOf(source.id) : null;
    const ids = targets.map((t) => t.id);
    const groups = targets.filter((t) => !t.is_private).map((t) => t.id);
    const [members, posters, pairs] = await Promise.all([
      membership.memberIdsIn(db, ids),
      groups.length > 0 ? membership.restrictedPostersIn(db, groups) : new Map<number, Set<number>>(),
      blocks.blocksInvolving([userId]),
    ]);
    const drafts = targets.map((target) => ({
      chat: target,
      senderId: userId,
      clientId: null,
      body: source.body,
      fileIds: [],
      forwardOf: source.id,
      ...(poll ? { poll } : {}),
    }));
    for (const d of drafts) {
      const asPending = { ...d, createdAt: '', resolve: () => {}, reject: () => {} } satisfies Pending;
      const refusal = refusalOf(asPending, members.get(d.chat.id), posters.get(d.chat.id), pairs, new Map());
      if (refusal) throw refusal;
    }
    const written = await Promise.all(drafts.map((d) => writer.write(d)));
    return written.map((w) => w.message);
  }
}
