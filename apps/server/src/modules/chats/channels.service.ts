import {
  CHANNELS_PAGE_SIZE,
  type ChannelDirectory,
  type ChatDetail,
  directoryQueryWords,
} from '@parley/protocol';
import { BadRequestError, NotFoundError } from '../../platform/errors';
import { avatarUrl } from '../accounts/user-view';
import * as channelsRepo from './channels.repo';
import { isPublicGroup } from './chat-membership';
import * as repo from './chats.repo';
import { type GroupJoinDeps, joinGroup } from './group-join';

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
  constructor(private readonly deps: GroupJoinDeps) {}

  async directory(userId: number, q: { q: string; cursor?: string }): Promise<ChannelDirectory> {
    const offset = offsetOf(q.cursor);
    const rows = await channelsRepo.channelsPage(this.deps.db, {
      userId,
      words: directoryQueryWords(q.q),
      offset,
      limit: CHANNELS_PAGE_SIZE + 1,
    });
    const page = rows.slice(0, CHANNELS_PAGE_SIZE);
    return {
      results: page.map((c) => ({
        chat_id: c.chat_id,
        group_name: c.name,
        description: c.description,
        avatar: avatarUrl(c.avatar),
        member_count: Number(c.member_count),
        is_member: !!c.is_member,
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
