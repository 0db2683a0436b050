import { EventEmitter } from 'node:events';

// Domain events that services emit and the realtime side (sockets, presence, notifications) listens to.
// Routes never touch sockets; they call services, services emit here.
import type { Message, Poll, Reaction, ThreadSummary } from '@parley/protocol';

export interface DomainEventMap {
  'sessions.revoked': { userId: number; sessionIds: number[] | 'all' };
  /** Awaited (emitAndWait) before the account's rows go, so listeners can still read what to clean up. */
  'user.deleted': { userId: number };
  /** The account's rows are gone, and with them, by the foreign keys, its messages. */
  'account.deleted': { userId: number };
  /**
   * A message was stored (after its commit, in id order), or a stored one was sent again with its client_id
   * (`resend`: the first broadcast may have died with a crashed server; only the room hears it again).
   */
  'message.published': {
    chatId: string;
    isPrivate: boolean;
    message: Message;
    clientId: string | null;
    memberIds: number[];
    /** The members who muted the chat: no push, mail or browser notification unless mentioned. */
    mutedIds?: number[];
    /** Members a block stands between with the sender: nothing notifies them of it, mention or not. */
    blockedIds?: number[];
    resend: boolean;
    /** The request that sent it (the sender's socket), whose id the logs of the work it sets off carry. */
    requestId?: string;
  };
  /**
   * A message's text was edited: the message as every member sees it (reactions' `me` false). `latest`: it is
   * the chat's newest message, which chat lists preview.
   */
  'message.updated': { chatId: string; message: Message; latest: boolean };
  /** A message was deleted for everyone. */
  'message.deleted': { chatId: string; messageId: number; latest: boolean };
  'reactions.updated': { chatId: string; messageId: number; reactions: Reaction[] };
  /** A thread got replies: its summary as it now stands. */
  'thread.updated': { chatId: string; rootId: number; thread: ThreadSummary };
  /**
   * A poll's votes changed, or it was closed: the poll as nobody in particular sees it (`my_votes` empty), and
   * each voter's choices, from which every reader is told their own (never anyone else's).
   */
  'poll.updated': {
    chatId: string;
    messageId: number;
    poll: Poll;
    choices: { userId: number; options: number[] }[];
  };
  /** A private chat's voice message was first played by `userId`, the person it was sent to. */
  'voice.played': { chatId: string; messageId: number; fileIds: number[]; userId: number };
  /** A chat's pinned messages changed: their ids as they now stand, newest pin first. */
  'pins.updated': { chatId: string; pinnedIds: number[] };
  /** messageIds: what became read for its senders (empty when the reader hides read receipts). */
  'messages.read': { chatId: string; userId: number; messageIds: number[]; deliveredIds: number[] };
  'messages.delivered': { chatId: string; messageIds: number[] };
  'unread.changed': { userIds: number[] };
  /** A group's name, description, picture, settings, members or roles changed. */
  'chat.updated': {
    chatId: string;
    /** The group just turned private: people watching it from outside are shown the door. */
    closedToWatchers?: boolean;
  };
  /** These people's chat lists changed (added to a group, a group deleted). */
  'chats.changed': { userIds: number[] };
  'member.removed': { chatId: string; userId: number };
  /** Someone joined a public group: their sockets watching its room reopen as a member's. */
  'member.joined': { chatId: string; userId: number };
  'chat.deleted': { chatId: string; avatar: string | null; memberIds: number[] };
  /**
   * The person's first socket opened (anywhere) or their last one closed (its last-seen time written), or they
   * turned their Online Status on or off (`switched`): the people who share a chat with them are told as it
   * stands when the announcement is made.
   */
  'presence.changed': { userId: number; switched?: boolean };
  /** A block was added or lifted: presence, typing and receipts between the two change. */
  'blocks.changed': { blockerId: number; blockedId: number };
}

export class DomainEvents {
  private readonly emitter = new EventEmitter({ captureRejections: true });
  constructor() {
    this.emitter.setMaxListeners(100);
  }
  emit<K extends keyof DomainEventMap>(name: K, payload: DomainEventMap[K]): void {
    this.emitter.emit(name, payload);
  }
  /** Calls every listener and waits for the promises they return (for work that must finish before a change). */
  async emitAndWait<K extends keyof DomainEventMap>(name: K, payload: DomainEventMap[K]): Promise<void> {
    await Promise.all(
      this.emitter.listeners(name).map((l) => (l as (p: DomainEventMap[K]) => unknown)(payload)),
    );
  }
  on<K extends keyof DomainEventMap>(
    name: K,
    listener: (payload: DomainEventMap[K]) => void | Promise<void>,
  ): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }
}
