import type { Message } from '@parley/protocol';
import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import { marksOf, reactionsByMessage, type Sender, toMessage, toQuote } from './message-view';
import * as repo from './messages.repo';

type PageMember = Awaited<ReturnType<ChatMembership['pageMembers']>>[number];

/** Reads stored messages as Messages: the history page (the hottest read) and single messages. */
export class MessageReader {
  constructor(
    private readonly deps: {
      db: Db;
      chats: Pick<ChatMembership, 'pageMembers'>;
      attachments: Pick<AttachmentsService, 'filesFor'>;
      users: Pick<UsersService, 'cards'>;
      /** People a block stands between with the reader: their reads do not tick the reader's messages (issue 13). */
      blocks?: { relatedTo(userId: number): Promise<Set<number>> };
    },
  ) {}

  /** A page of a chat's history as `viewerId` sees it, oldest first, from past what they cleared. */
  async page(
    chat: ChatRef,
    viewerId: number,
    q: { before?: number; after?: number; around?: number; limit: number; clearedBefore: number },
  ): Promise<Message[]> {
    const { db, chats } = this.deps;
    const rows =
      q.around !== undefined
        ? repo.messagesAround(db, chat.id, {
            aroundId: q.around,
            limit: q.limit,
            clearedBefore: q.clearedBefore,
          })
        : repo.messagesPage(db, chat.id, q);
    const [page, members] = await Promise.all([rows, chats.pageMembers(chat.id)]);
    if (q.around !== undefined && !page.some((m) => m.id === q.around))
      throw new NotFoundError('Message not found.');
    return this.view(chat, viewerId, page, members);
  }

  /** These messages of one chat as `viewerId` sees them, newest first (search results). */
  async some(chat: ChatRef, viewerId: number, ids: number[]): Promise<Message[]> {
    const [rows, members] = await Promise.all([
      repo.messagesByIds(this.deps.db, chat.id, ids),
      this.deps.chats.pageMembers(chat.id),
    ]);
    return this.view(chat, viewerId, rows, members);
  }

  /** One message of this chat as `viewerId` sees it (0: as a room frame, for every member alike). */
  async byId(id: number, chat: ChatRef, viewerId = 0): Promise<Message> {
    const [row, members] = await Promise.all([
      repo.messageById(this.deps.db, id),
      this.deps.chats.pageMembers(chat.id),
    ]);
    if (!row || row.chat_id !== chat.id) throw new NotFoundError('Message not found.');
    const [message] = await this.view(chat, viewerId, [row], members);
    return message as Message;
  }

  /**
   * The senders' names and avatars come with the members (read anyway for the ticks): cheaper than joining
   * users to every message. Only a sender who has left the chat is looked up, with the quoted messages' ones.
   */
  private async view(
    chat: ChatRef,
    viewerId: number,
    rows: repo.StoredMessage[],
    members: PageMember[],
  ): Promise<Message[]> {
    const { db, attachments, users } = this.deps;
    const ids = rows.map((r) => r.id);
    const inPage = new Map(rows.map((r) => [r.id, r]));
    const quoted = [...new Set(rows.flatMap((r) => (r.reply_to_id === null ? [] : [r.reply_to_id])))];
    const [files, reactionRows, outside, hidden] = await Promise.all([
      attachments.filesFor(ids),
      // Only messages that carry reactions: most pages read none.
      repo.reactionsOf(
        db,
        rows.flatMap((r) => (r.reaction_count > 0 ? [r.id] : [])),
      ),
      repo.quotesOf(
        db,
        quoted.filter((id) => !inPage.has(id)),
      ),
      viewerId > 0 && this.deps.blocks ? this.deps.blocks.relatedTo(viewerId) : null,
    ]);
    const quotes = new Map<
      number,
      Pick<repo.StoredMessage, 'id' | 'sender_id' | 'body' | 'deleted_at' | 'kind'>
    >(inPage);
    for (const q of outside) if (q.chat_id === chat.id) quotes.set(q.id, q);

    const senders = new Map<number, Sender>();
    for (const m of members) if (m.user_id !== null) senders.set(m.user_id, m);
    const missing = new Set<number>();
    for (const r of [...rows, ...outside])
      if (r.sender_id !== null && !senders.has(r.sender_id)) missing.add(r.sender_id);
    for (const s of await users.cards([...missing])) senders.set(s.id, s);
    const senderOf = (id: number | null) => (id === null ? undefined : senders.get(id));

    const marks = marksOf(
      hidden?.size
        ? members.map((m) => (m.user_id !== null && hidden.has(m.user_id) ? { ...m, read_receipt: 0 } : m))
        : members,
    );
    const reactions = reactionsByMessage(reactionRows, viewerId);
    return rows.map((r) => {
      const q = r.reply_to_id === null ? undefined : quotes.get(r.reply_to_id);
      return toMessage(r, chat.chat_id, senderOf(r.sender_id), marks, files.get(r.id), {
        replyTo: q ? toQuote(q, senderOf(q.sender_id)) : null,
        reactions: reactions.get(r.id) ?? [],
      });
    });
  }
}
