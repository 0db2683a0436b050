import type { Message } from '@parley/protocol';
import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatRef, ChatsService } from '../chats/chats.service';
import { marksOf, type Sender, toMessage } from './message-view';
import * as repo from './messages.repo';

type PageMember = Awaited<ReturnType<ChatsService['pageMembers']>>[number];

/** Reads stored messages as Messages: the history page (the hottest read) and a single message. */
export class MessageReader {
  constructor(
    private readonly deps: {
      db: Db;
      chats: Pick<ChatsService, 'pageMembers'>;
      attachments: Pick<AttachmentsService, 'filesFor'>;
      users: Pick<UsersService, 'cards'>;
    },
  ) {}

  /** A page of a chat's history, oldest first, from past what the reader cleared. */
  async page(
    chat: ChatRef,
    q: { before?: number; after?: number; limit: number; clearedBefore: number },
  ): Promise<Message[]> {
    const [rows, members] = await Promise.all([
      repo.messagesPage(this.deps.db, chat.id, q),
      this.deps.chats.pageMembers(chat.id),
    ]);
    return this.view(chat, rows, members);
  }

  async byId(id: number, chat: ChatRef): Promise<Message> {
    const [row, members] = await Promise.all([
      repo.messageById(this.deps.db, id),
      this.deps.chats.pageMembers(chat.id),
    ]);
    if (!row || row.chat_id !== chat.id) throw new NotFoundError();
    const [message] = await this.view(chat, [row], members);
    return message as Message;
  }

  /**
   * The senders' names and avatars come with the members (read anyway for the ticks): cheaper than joining
   * users to every message. Only a sender who has left the chat is looked up.
   */
  private async view(chat: ChatRef, rows: repo.StoredMessage[], members: PageMember[]): Promise<Message[]> {
    const { attachments, users } = this.deps;
    const senders = new Map<number, Sender>();
    for (const m of members) if (m.user_id !== null) senders.set(m.user_id, m);
    const missing = new Set<number>();
    for (const r of rows) if (r.sender_id !== null && !senders.has(r.sender_id)) missing.add(r.sender_id);
    const [files, departed] = await Promise.all([
      attachments.filesFor(rows.map((r) => r.id)),
      users.cards([...missing]),
    ]);
    for (const s of departed) senders.set(s.id, s);
    const marks = marksOf(members);
    return rows.map((r) =>
      toMessage(
        r,
        chat.chat_id,
        r.sender_id === null ? undefined : senders.get(r.sender_id),
        marks,
        files.get(r.id),
      ),
    );
  }
}
