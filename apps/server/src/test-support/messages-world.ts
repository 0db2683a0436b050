import type { ChatFile } from '@parley/protocol';
import type { Transaction } from 'kysely';
import { vi } from 'vitest';
import { loadConfig } from '../config';
import { createDb, type Db } from '../db/database';
import { migrateToLatest } from '../db/migrate';
import type { Database } from '../db/schema';
import * as usersRepo from '../modules/accounts/users.repo';
import { UsersService } from '../modules/accounts/users.service';
import type { AttachmentsService } from '../modules/attachments/attachments.service';
import { ChatMembership, type ChatRef } from '../modules/chats/chat-membership';
import * as chatsRepo from '../modules/chats/chats.repo';
import { MessageReader } from '../modules/messages/message-reader';
import { MessageWriter } from '../modules/messages/message-writer';
import { PollsService } from '../modules/polls/polls.service';
import { DomainEvents } from '../platform/events';
import { noBlocks } from './no-blocks';

// The messages module's surroundings without an app: a fresh in-memory SQLite database migrated by the
// project's own migrations, the real chat membership, users and polls services, message reader and writer over
// it, and people and chats seeded through the real repos. Attachments are a fake (below): files are another
// module's business.

/** A fresh in-memory SQLite database with every migration applied. */
export async function memoryDb(): Promise<Db> {
  const { db, dialect } = createDb(loadConfig({ DATABASE_URL: 'sqlite::memory:' }));
  await migrateToLatest(db, dialect);
  return db;
}

export async function messagesWorld() {
  const db = await memoryDb();
  const events = new DomainEvents();
  const users = new UsersService(db);
  const chats = new ChatMembership(db);
  const now = () => new Date().toISOString();
  let chatCount = 0;

  /** An activated account; its id. */
  const person = (name: string, o: { readReceipt?: boolean } = {}) =>
    usersRepo.insertUser(db, {
      username: name.toLowerCase(),
      email: `${name.toLowerCase()}@example.test`,
      password_hash: 'not a hash',
      first_name: name,
      last_name: '',
      displayname: '',
      is_activated: 1,
      read_receipt: o.readReceipt === false ? 0 : 1,
      date_joined: now(),
    });

  /** A chat with these members (a private one for two unless `group`). */
  const chat = async (memberIds: number[], o: { group?: boolean } = {}): Promise<ChatRef> => {
    chatCount += 1;
    const ref = { chat_id: `chat-${chatCount}`, is_private: o.group || memberIds.length !== 2 ? 0 : 1 };
    const id = await chatsRepo.insertChat(db, { ...ref, private_key: null, name: '', now: now() });
    for (const userId of memberIds)
      await chatsRepo.insertMember(db, { chat_id: id, user_id: userId, role: 'member', joined_at: now() });
    return { id, ...ref };
  };

  /** Records every transaction begun on the database, and how it ended, in `log`. */
  const traceTransactions = (log: string[]) => {
    const begin = db.transaction.bind(db);
    vi.spyOn(db, 'transaction').mockImplementation(() => {
      const builder = begin();
      const execute = builder.execute.bind(builder);
      return Object.assign(builder, {
        execute: async <T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> => {
          log.push('begin');
          try {
            const result = await execute(fn);
            log.push('commit');
            return result;
          } catch (err) {
            log.push('rollback');
            throw err;
          }
        },
      });
    });
  };

  const attachments = new FakeAttachments();
  const polls = new PollsService({ db, events, membership: chats });
  const reader = new MessageReader({ db, chats, attachments, users, polls });
  const writer = new MessageWriter({
    db,
    events,
    chats,
    attachments,
    users,
    reader,
    blocks: noBlocks,
    polls,
  });
  /** Writes a message through the real writer; its id. */
  const post = async (chat: ChatRef, senderId: number | null, body: string) =>
    (await writer.write({ chat, senderId, clientId: null, body, fileIds: [] })).message.id;

  return {
    db,
    events,
    users,
    chats,
    attachments,
    polls,
    reader,
    writer,
    person,
    chat,
    post,
    traceTransactions,
  };
}

type AttachmentsPort = Pick<AttachmentsService, 'claimable' | 'attach' | 'filesFor' | 'filesInRange'>;

/**
 * Files for the writer and reader: `claimableIds` are the uploads that may be sent; a claim checks them all,
 * attaching ties them to the message (and uses them up). Every call is recorded.
 */
export class FakeAttachments implements AttachmentsPort {
  readonly claimableIds = new Set<number>();
  readonly claims: number[][] = [];
  readonly attached = new Map<number, number[]>();

  async claimable(_trx: Transaction<Database>, _chatDbId: number, _uploaderId: number, ids: number[]) {
    this.claims.push(ids);
    return ids.every((id) => this.claimableIds.has(id));
  }

  async attach(_trx: Transaction<Database>, ids: number[], messageId: number) {
    for (const id of ids) this.claimableIds.delete(id);
    this.attached.set(messageId, ids);
  }

  async copyFiles(_trx: Transaction<Database>, fromMessageId: number, to: { messageId: number }) {
    const ids = this.attached.get(fromMessageId);
    if (ids) this.attached.set(to.messageId, ids);
  }

  async filesFor(messageIds: number[]): Promise<Map<number, ChatFile[]>> {
    const files = new Map<number, ChatFile[]>();
    for (const id of messageIds) {
      const ids = this.attached.get(id);
      if (ids)
        files.set(
          id,
          ids.map((fileId) => ({ id: fileId, type: 'other', file: `/files/${fileId}` })),
        );
    }
    return files;
  }

  async filesInRange(_chatDbId: number, first: number, last: number): Promise<Map<number, ChatFile[]>> {
    return this.filesFor([...this.attached.keys()].filter((id) => id >= first && id <= last));
  }
}
