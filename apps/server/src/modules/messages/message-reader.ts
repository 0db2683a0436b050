import type { ChatFile, Message, Poll } from '@parley/protocol';
import type { Db } from '../../db/database';
import { NotFoundError } from '../../platform/errors';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import type { ChatMembership, ChatRef } from '../chats/chat-membership';
import type { PageMember } from '../chats/chats.repo';
import type { PollsService } from '../polls/polls.service';
import {
  type MessageRow,
  marksOf,
  pageOfMessages,
  reactionsByMessage,
  type Sender,
  threadOf,
  toQuote,
} from './message-view';
import * as repo from './messages.repo';
import type { NewestPages } from './newest-pages';
import { participantsOf } from './threads.repo';

type Row = repo.PageRow;

interface Deps {
  db: Db;
  /** The newest pages kept while the messages are unchanged (SQLite); read every time without it. */
  newestPages?: NewestPages;
  chats: Pick<ChatMembership, 'pageMembers'>;
  attachments: Pick<AttachmentsService, 'filesFor' | 'filesInRange'>;
  users: Pick<UsersService, 'cards'>;
  /** People a block stands between with the reader: their reads do not tick the reader's messages. */
  blocks?: { relatedTo(userId: number): Promise<Set<number>> };
  /** The polls of poll messages, with the reader's own choices. */
  polls: Pick<PollsService, 'viewsOf'>;
}

/**
 * Reads stored messages as Messages: the history page (the hottest read) and single messages. A page is one
 * keyset statement on the messages, beside the members (read anyway for the ticks, and the senders' names with
 * them) and one statement for the files of its stretch; reactions, quotes from further back and senders who
 * left cost a statement each only when the page has any. Every statement is prepared once (db/prepared.ts).
 */
export class MessageReader {
  constructor(private readonly deps: Deps) {}

  /**
   * A page of a chat's history as `viewerId` sees it, oldest first, from past what they cleared. `members`:
   * the chat's page members when the caller has read them already (the membership check reads them).
   */
  async page(
    chat: ChatRef,
    viewerId: number,
    q: { before?: number; after?: number; around?: number; limit: number; clearedBefore: number },
    members?: PageMember[],
  ): Promise<Message[]> {
    const { db, chats, newestPages } = this.deps;
    const newest = q.around === undefined && q.before === undefined && q.after === undefined;
    const rows =
      q.around !== undefined
        ? repo.messagesAround(db, chat.id, {
            aroundId: q.around,
            limit: q.limit,
            clearedBefore: q.clearedBefore,
          })
        : newest && newestPages
          ? newestPages.get(`${chat.id}:${q.clearedBefore}:${q.limit}`, () =>
              repo.messagesPage(db, chat.id, q),
            )
          : repo.messagesPage(db, chat.id, q);
    const [page, all] = await Promise.all([rows, members ?? chats.pageMembers(chat.id)]);
    if (q.around !== undefined && !page.some((m) => m.id === q.around))
      throw new NotFoundError('Message not found.');
    // A page is a consecutive stretch of the chat: its files are those of the messages from its first to its last.
    const first = page[0]?.id ?? 0;
    const last = page[page.length - 1]?.id ?? 0;
    const files = async () =>
      page.length === 0
        ? new Map<number, ChatFile[]>()
        : this.deps.attachments.filesInRange(chat.id, first, last);
    const reactions = () => repo.reactionsInRange(db, { chat: chat.id, first, last });
    return this.view(chat, viewerId, page, all, files, reactions);
  }

  /** These messages of one chat as `viewerId` sees them, newest first (search results). */
  async some(chat: ChatRef, viewerId: number, ids: number[]): Promise<Message[]> {
    const [rows, members] = await Promise.all([
      repo.messagesByIds(this.deps.db, chat.id, ids),
      this.deps.chats.pageMembers(chat.id),
    ]);
    return this.viewOf(chat, viewerId, rows, members);
  }

  /**
   * Messages of this chat already read, in the order given, as `viewerId` sees them (a thread's root and
   * replies). `members`: the chat's page members when the caller has them.
   */
  async rows(chat: ChatRef, viewerId: number, rows: Row[], members?: PageMember[]): Promise<Message[]> {
    return this.viewOf(chat, viewerId, rows, members ?? (await this.deps.chats.pageMembers(chat.id)));
  }

  /** One message of this chat as `viewerId` sees it (0: as a room frame, for every member alike). */
  async byId(id: number, chat: ChatRef, viewerId = 0): Promise<Message> {
    const [row, members] = await Promise.all([
      repo.messageById(this.deps.db, id),
      this.deps.chats.pageMembers(chat.id),
    ]);
    if (!row || row.chat_id !== chat.id) throw new NotFoundError('Message not found.');
    const [message] = await this.viewOf(chat, viewerId, [row], members);
    return message as Message;
  }

  /** Messages picked by id (not a stretch): their files and reactions are read by id. */
  private viewOf(chat: ChatRef, viewerId: number, rows: Row[], members: PageMember[]) {
    const ids = rows.map((r) => r.id);
    const files = () => this.deps.attachments.filesFor(ids);
    const reactions = () =>
      repo.reactionsOf(
        this.deps.db,
        rows.flatMap((r) => (r.reaction_count > 0 ? [r.id] : [])),
      );
    return this.view(chat, viewerId, rows, members, files, reactions);
  }

  /**
   * The senders' names and avatars come with the members (read anyway for the ticks): cheaper than joining
   * users to every message. Only a sender who has left the chat is looked up, with the quoted messages' ones.
   */
  private async view(
    chat: ChatRef,
    viewerId: number,
    rows: Row[],
    members: PageMember[],
    filesOf: () => Promise<Map<number, ChatFile[]>>,
    reactionsOf: () => Promise<repo.ReactionRow[]>,
  ): Promise<Message[]> {
    const { db, users } = this.deps;
    // Replies mostly quote messages of the same page: only those further back are read.
    let inPage: Map<number, Row> | undefined;
    const quoted = new Set<number>();
    let reacted = false;
    const roots: number[] = [];
    const polls: number[] = [];
    for (const r of rows) {
      if (r.reaction_count > 0) reacted = true;
      if (r.thread_reply_count > 0) roots.push(r.id);
      if (r.has_poll && r.deleted_at === null) polls.push(r.id);
      if (r.reply_to_id === null) continue;
      inPage ??= new Map(rows.map((x) => [x.id, x]));
      if (!inPage.has(r.reply_to_id)) quoted.add(r.reply_to_id);
    }
    const [files, reactionRows, outside, hidden, participants, pollOf] = await Promise.all([
      filesOf(),
      // Only messages that carry reactions: most pages read none. Likewise threads and polls.
      reacted ? reactionsOf() : [],
      quoted.size > 0 ? repo.quotesOf(db, [...quoted]) : [],
      viewerId > 0 && this.deps.blocks ? this.deps.blocks.relatedTo(viewerId) : null,
      roots.length > 0 ? participantsOf(db, roots) : new Map<number, number[]>(),
      polls.length > 0 ? this.deps.polls.viewsOf(polls, viewerId) : new Map<number, Poll>(),
    ]);
    const further = new Map<number, repo.QuotedRow>();
    for (const q of outside) if (q.chat_id === chat.id) further.set(q.id, q);
    const quoteOf = (id: number) => inPage?.get(id) ?? further.get(id);

    const senders = new Map<number, Sender>();
    for (const m of members) if (m.user_id !== null) senders.set(m.user_id, m);
    const missing = new Set<number>();
    for (const r of rows) if (r.sender_id !== null && !senders.has(r.sender_id)) missing.add(r.sender_id);
    for (const r of outside) if (r.sender_id !== null && !senders.has(r.sender_id)) missing.add(r.sender_id);
    if (missing.size > 0) for (const s of await users.cards([...missing])) senders.set(s.id, s);
    const senderOf = (id: number | null) => (id === null ? undefined : senders.get(id));

    const marks = marksOf(
      hidden?.size
        ? members.map((m) => (m.user_id !== null && hidden.has(m.user_id) ? { ...m, read_receipt: 0 } : m))
        : members,
    );
    const reactions = reactionsByMessage(reactionRows, viewerId);
    return pageOfMessages(rows, chat.chat_id, {
      senderOf,
      marks,
      files,
      extrasOf: (r: MessageRow) => {
        const q = r.reply_to_id === null ? undefined : quoteOf(r.reply_to_id);
        return {
          // A poll quoted from this page has its question among the page's polls; one from further back read it.
          replyTo: q
            ? toQuote(
                {
                  ...q,
                  poll_question:
                    pollOf.get(q.id)?.question ?? ('poll_question' in q ? q.poll_question : null),
                },
                senderOf(q.sender_id),
              )
            : null,
          reactions: reactions.get(r.id) ?? [],
          thread: threadOf(r, participants.get(r.id)),
          poll: pollOf.get(r.id) ?? null,
        };
      },
    });
  }
}
