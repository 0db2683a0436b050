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
import { personName } from './group-access';
import type { GroupsDeps } from './groups.service';

/** The directory's cursor: how many entries the pages before it held, opaque to clients. */
const cursorOf = (offset: number) => Buffer.from(`o${offset}`).toString('base64url');
function offsetOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^o(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new BadRequestError('Invalid cursor.');
  return Number(match[1]);
}

const nowIso = () => new Date().toISOString();

/**
 * Public groups (channels): the directory every signed-in person browses, and joining one. A private group
 * stays invisible to anyone outside it: joining it answers 404, as for no such chat.
 */
export class Channels {
  constructor(private readonly deps: Pick<GroupsDeps, 'db' | 'events' | 'chats' | 'announcer' | 'users'>) {}

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

  /**
   * Joins a public group as a member; joining again changes nothing. The members get '{name} joined' and the
   * group's new detail; the person's sockets watching the room reopen as a member's ('member.joined').
   */
  async join(userId: number, chatId: string): Promise<ChatDetail> {
    const { db, chats } = this.deps;
    const chat = await repo.findChatByPublicId(db, chatId);
    if (!chat) throw new NotFoundError('Chat not found.');
    if (await repo.findMembership(db, chat.id, userId)) return chats.detailForReader(userId, chatId);
    if (!isPublicGroup(chat)) throw new NotFoundError('Chat not found.');
    try {
      await repo.insertMember(db, { chat_id: chat.id, user_id: userId, role: 'member', joined_at: nowIso() });
    } catch (err) {
      // Two joins at once: the unique membership kept one; the other is the same answer.
      if (await repo.findMembership(db, chat.id, userId)) return chats.detailForReader(userId, chatId);
      throw err;
    }
    await this.deps.announcer.announce(chat, `${await personName(this.deps.users, userId)} joined`);
    this.deps.events.emit('member.joined', { chatId, userId });
    this.deps.events.emit('chat.updated', { chatId });
    this.deps.events.emit('chats.changed', { userIds: [userId] });
    return chats.detailForReader(userId, chatId);
  }
}
