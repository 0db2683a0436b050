import { POLL_TEXT, type Poll, type PollInput } from '@parley/protocol';
import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { ChatMembership } from '../chats/chat-membership';
import { choicesIn, inputOf, pollOf, sameChoices } from './poll-view';
import * as repo from './polls.repo';

type Trx = Transaction<Database>;

interface Deps {
  db: Db;
  events: DomainEvents;
  membership: Pick<ChatMembership, 'requireReader'>;
}

/** A poll to store with its new message, inside the writer's transaction. */
export interface NewPoll {
  messageId: number;
  chatDbId: number;
  senderId: number;
  input: PollInput;
}

/**
 * Polls: stored with their message by the messages module's writer (inside its transaction), shown on the
 * messages its reader builds, dropped with a message deleted for everyone. Members vote, change and take back
 * their vote until the poll's author closes it; each change is announced to the room ('poll.updated'), which
 * tells every reader their own choices.
 */
export class PollsService {
  constructor(private readonly deps: Deps) {}

  /** Stores the polls of new messages, inside the transaction that stores the messages. */
  create(trx: Trx, polls: NewPoll[]): Promise<void> {
    return repo.insertPolls(
      trx,
      polls.map((p) => ({
        message_id: p.messageId,
        chat_id: p.chatDbId,
        sender_id: p.senderId,
        question: p.input.question,
        options: JSON.stringify(p.input.options),
        multiple: p.input.multiple ? 1 : 0,
        anonymous: p.input.anonymous ? 1 : 0,
      })),
    );
  }

  /** The polls of these messages as `viewerId` sees them (0: nobody's own choices), by message id. */
  async viewsOf(messageIds: number[], viewerId: number): Promise<Map<number, Poll>> {
    const [polls, votes] = await Promise.all([
      repo.pollsOf(this.deps.db, messageIds),
      repo.votesOf(this.deps.db, messageIds),
    ]);
    return new Map(
      polls.map((p) => [
        p.message_id,
        pollOf(
          p,
          votes.filter((v) => v.message_id === p.message_id),
          viewerId,
        ),
      ]),
    );
  }

  /** The poll a message asked, as its author asked it (a forwarded copy asks it again); null for none. */
  async inputOf(messageId: number): Promise<PollInput | null> {
    const [row] = await repo.pollsOf(this.deps.db, [messageId]);
    return row ? inputOf(row) : null;
  }

  /** Drops a message's poll and votes, inside the transaction deleting it for everyone. */
  removeIn(trx: Trx, messageId: number): Promise<void> {
    return repo.deletePoll(trx, messageId);
  }

  /**
   * Sets the reader's choices in a poll of this chat (none takes their vote back): one answer unless the poll
   * takes several, never on a closed poll. Doing it twice changes nothing and announces nothing.
   */
  async vote(userId: number, chatId: string, messageId: number, options: number[]): Promise<Poll> {
    const chosen = [...options].sort((a, b) => a - b);
    if (new Set(chosen).size !== chosen.length) throw new BadRequestError(POLL_TEXT.sameOptionTwice);
    const chat = await this.voterChat(userId, chatId, messageId);
    const changed = await this.deps.db.transaction().execute(async (trx) => {
      const poll = await this.pollIn(trx, chat.id, messageId);
      if (poll.closed_at !== null) throw new ConflictError(POLL_TEXT.closed);
      const count = inputOf(poll).options.length;
      if (chosen.some((o) => o >= count)) throw new BadRequestError(POLL_TEXT.badOption);
      if (!poll.multiple && chosen.length > 1) throw new BadRequestError(POLL_TEXT.oneChoice);
      if (sameChoices(await repo.choicesOf(trx, messageId, userId), chosen)) return false;
      await repo.replaceChoices(trx, { messageId, userId, options: chosen, at: new Date().toISOString() });
      return true;
    });
    return this.after(chatId, messageId, userId, changed);
  }

  /** Closes a poll for good: only its author may. Closing it again changes nothing. */
  async close(userId: number, chatId: string, messageId: number): Promise<Poll> {
    const { chat, member } = await this.deps.membership.requireReader(userId, chatId);
    const changed = await this.deps.db.transaction().execute(async (trx) => {
      const poll = await this.pollIn(trx, chat.id, messageId);
      if (!member || poll.sender_id !== userId) throw new ForbiddenError(POLL_TEXT.notYours);
      if (poll.closed_at !== null) return false;
      await repo.closePoll(trx, messageId, new Date().toISOString());
      return true;
    });
    return this.after(chatId, messageId, userId, changed);
  }

  /** The chat of a poll the caller may vote in: a member's (someone watching a public group only reads). */
  private async voterChat(userId: number, chatId: string, messageId: number) {
    const { chat, member } = await this.deps.membership.requireReader(userId, chatId);
    if (!member) throw new ForbiddenError(POLL_TEXT.joinToVote);
    // What the member cleared from their history is no longer theirs to see, nor to vote on.
    if (messageId <= member.cleared_before_id) throw new NotFoundError(POLL_TEXT.notFound);
    return chat;
  }

  /** The poll of a message of this chat, locked for the change; 404 alike for none and another chat's. */
  private async pollIn(trx: Trx, chatDbId: number, messageId: number) {
    const poll = await repo.lockedPoll(trx, messageId);
    if (!poll || poll.chat_id !== chatDbId) throw new NotFoundError(POLL_TEXT.notFound);
    return poll;
  }

  /** The poll as the caller now sees it; a change is announced to the room with everyone's own choices. */
  private async after(chatId: string, messageId: number, userId: number, changed: boolean): Promise<Poll> {
    const { db, events } = this.deps;
    const [[poll], votes] = await Promise.all([repo.pollsOf(db, [messageId]), repo.votesOf(db, [messageId])]);
    // Deleted for everyone the moment after: nothing to tell.
    if (!poll) throw new NotFoundError(POLL_TEXT.notFound);
    if (changed)
      events.emit('poll.updated', {
        chatId,
        messageId,
        poll: pollOf(poll, votes, 0),
        choices: choicesIn(votes),
      });
    return pollOf(poll, votes, userId);
  }
}
