import {
  CHANNELS_PAGE_SIZE,
  type ChannelDirectory,
  type ChatDetail,
  directoryQueryWords,
} from '@parley/protocol';
import { KeptReads } from '../../db/kept-reads';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { avatarUrl } from '../accounts/user-view';
import * as channelsRepo from './channels.repo';
import { isPublicGroup } from './chat-membership';
import * as repo from './chats.repo';
import { type GroupJoinDeps, joinGroup } from './group-join';
import type { GroupsDeps } from './groups.service';

export type ChannelsDeps = GroupJoinDeps & Pick<GroupsDeps, 'writes'>;

/** The directory's cursor: how many entries the pages before it held, opaque to clients. */
const cursorOf = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');
function offsetOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError('Invalid cursor.');
  return Number(match[1]);
}

/**
 * Public groups (channels): the directory every signed-in person browses, and joining one. A private group
 * stays invisible to anyone outside it: joining it answers 404, as for no such chat.
 */
export class Channels {
  /**
   * The directory's pages as read (the same for everyone) and each reader's chats (for `is_member`), kept while
   * nothing in the database was written (`writes`, SQLite's count of changed rows: a join, a new message's
   * activity time, a renamed group all move it). Read every time without it (PostgreSQL).
   */
  private readonly pages?: KeptReads<channelsRepo.DirectoryRow>;
  private readonly chatsOf?: KeptReads<{ chat_id: number }>;

  constructor(private readonly deps: ChannelsDeps) {
    const { writes } = deps;
    if (writes) {
      const stamp = () => String(writes());
      this.pages = new KeptReads(stamp, 64);
      this.chatsOf = new KeptReads(stamp, 256);
    }
  }

  async directory(userId: number, q: { q: string; cursor?: string }): Promise<ChannelDirectory> {
    const { db } = this.deps;
    const offset = offsetOf(q.cursor);
    const words = directoryQueryWords(q.q);
    const readPage = () => channelsRepo.channelsPage(db, { words, offset, limit: CHANNELS_PAGE_SIZE + 1 });
    const readMine = () => channelsRepo.chatsOf(db, userId);
    const [rows, mine] = await Promise.all([
      this.pages ? this.pages.get(`${offset}:${words.join(' ')}`, readPage) : readPage(),
      this.chatsOf ? this.chatsOf.get(String(userId), readMine) : readMine(),
    ]);
    const page = rows.slice(0, CHANNELS_PAGE_SIZE);
    const member = new Set(mine.map((m) => m.chat_id));
    return {
      results: page.map((c) => ({
        chat_id: c.chat_id,
        group_name: c.name,
        description: c.description,
        avatar: avatarUrl(c.avatar),
        member_count: Number(c.member_count),
        is_member: member.has(c.id),
        last_activity_at: c.last_activity_at,
      })),
      next_cursor: rows.length > CHANNELS_PAGE_SIZE ? cursorOf(offset + CHANNELS_PAGE_SIZE) : null,
    };
  }

  /** Joins a public group as a member (joinGroup: joining again changes nothing); a private one is 404. */
  async join(userId: number, chatId: string): Promise<ChatDetail> {
    const chat = await repo.findChatByPublicId(this.deps.db, chatId);
    if (!chat) throw new NotFoundError('Chat not found.');
    return joinGroup(this.deps, userId, chat, async () => {
      if (!isPublicGroup(chat)) throw new NotFoundError('Chat not found.');
    });
  }
}
