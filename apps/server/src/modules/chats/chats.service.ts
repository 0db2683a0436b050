import { randomBytes } from 'node:crypto';
import {
  type ChatDetail,
  type ChatListItem,
  type ChatMember,
  DELETED_MESSAGE_TEXT,
  DELETED_USERNAME,
  directoryWords,
  type GroupCreate,
  isAdminRole,
  type MuteState,
  pollLine,
  privateChatName,
  SAFETY_TEXT,
} from '@parley/protocol';
import type { Db } from '../../db/database';
import { BadRequestError, FieldsError, ForbiddenError, NotFoundError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { Presence } from '../../platform/presence';
import { avatarUrl } from '../accounts/user-view';
import type { UsersService } from '../accounts/users.service';
import type { BlocksService } from '../safety/blocks.service';
import type { ChatMembership } from './chat-membership';
import { toDetail, toMember } from './chat-view';
import * as repo from './chats.repo';
import * as mutesRepo from './mutes.repo';

/** What the chat list and "clear for me" read of the messages module (implemented by its MessageStats). */
export interface ChatActivity {
  /** The newest message of each chat, passing over those sent by `exceptSenders`. */
  lastMessages(
    chatDbIds: number[],
    exceptSenders?: number[],
  ): Promise<
    {
      id: number;
      chat_id: number;
      body: string;
      created_at: string;
      deleted_at: string | null;
      /** 'system' for a line Parley wrote. */
      kind: 'user' | 'system';
      file_count: number | string | bigint | null;
      file_name: string | null;
      /** The first file's kind ('voice' for a voice message). */
      file_kind: string | null;
      /** The question of a poll. */
      poll_question: string | null;
    }[]
  >;
  /** Unread messages per chat; messages from people the member blocked are never unread. */
  unreadCounts(userId: number): Promise<Map<number, number>>;
  /** Unread replies, sent only to their thread, of the threads the person follows, per chat. */
  unreadRepliesPerChat(userId: number): Promise<Map<number, number>>;
  /** How many messages of the chat the member has not read, and the first of them (blocked senders' aside). */
  unreadIn(
    chatDbId: number,
    userId: number,
    marks: { lastRead: number; clearedBefore: number },
  ): Promise<{ count: number; firstId: number | null }>;
  latestId(chatDbId: number): Promise<number>;
}

interface Deps {
  db: Db;
  membership: ChatMembership;
  events: DomainEvents;
  presence: Presence;
  users: UsersService;
  activity: ChatActivity;
  /**
   * Blocks: who may start a private chat, whose presence a viewer sees, and whose messages never preview in
   * the blocker's chat list.
   */
  blocks: Pick<BlocksService, 'relatedTo' | 'refusal' | 'blockedIdsBy'>;
  /** Someone who may not be written to first though no block stands between (a bot its owner keeps closed). */
  gate?: PrivateChatGate;
}

/** Asked before a new private chat is made: why the person may not start it, or null. */
export interface PrivateChatGate {
  refusal(userId: number, otherId: number): Promise<string | null>;
}

/** A mute "always" is stored as this time, so one comparison with now tells every mute apart. */
export const MUTED_ALWAYS = '9999-12-31T23:59:59.999Z';

/** A member's mute as the reader sees it: muted until a time, always (`muted_until` null), or not at all. */
export function muteStateOf(mutedUntil: string | null, now = new Date().toISOString()): MuteState {
  if (!mutedUntil || mutedUntil <= now) return { muted: false, muted_until: null };
  return { muted: true, muted_until: mutedUntil === MUTED_ALWAYS ? null : mutedUntil };
}

const newChatId = () => randomBytes(9).toString('base64url');

/** What the chat list says of a last message: its text, else a poll's question, or that it was deleted. */
const lastMessageText = (m: { body: string; deleted_at: string | null; poll_question: string | null }) => {
  if (m.deleted_at) return DELETED_MESSAGE_TEXT;
  return !m.body && m.poll_question ? pollLine(m.poll_question) : m.body;
};
const nowIso = () => new Date().toISOString();

/**
 * Chats as people see and start them: private and group chats, the chat list, a chat's detail and summaries,
 * clearing a conversation for oneself. Membership and member marks are ChatMembership's (chat-membership.ts).
 */
export class ChatsService {
  constructor(private readonly deps: Deps) {}

  /** The chat and the caller's membership; 404 alike for no such chat and not a member. */
  requireMember(userId: number, chatId: string) {
    return this.deps.membership.requireMember(userId, chatId);
  }

  /** As requireMember, and for anyone outside a public group too (member null: they preview it). */
  requireReader(userId: number, chatId: string) {
    return this.deps.membership.requireReader(userId, chatId);
  }

  async listChats(userId: number): Promise<ChatListItem[]> {
    const [chats, blocked] = await Promise.all([
      repo.chatsOfUser(this.deps.db, userId),
      this.deps.blocks.blockedIdsBy(userId),
    ]);
    const ids = chats.map((c) => c.id);
    const [members, last, unreadByChat, repliesByChat] = await Promise.all([
      repo.membersOf(this.deps.db, ids),
      this.deps.activity.lastMessages(ids, blocked),
      this.deps.activity.unreadCounts(userId),
      this.deps.activity.unreadRepliesPerChat(userId),
    ]);
    const asSeen = await this.presenceFor(userId, members);
    const lastByChat = new Map(last.map((m) => [m.chat_id, m]));
    return chats.map((c) => {
      const mine = members.filter((m) => m.chat_id === c.id);
      const lastMsg = lastByChat.get(c.id);
      const visibleLast = lastMsg && lastMsg.id > c.cleared_before_id ? lastMsg : undefined;
      const base = {
        id: c.id,
        chat_id: c.chat_id,
        is_private: !!c.is_private,
        member_count: mine.length,
        last_message: visibleLast ? lastMessageText(visibleLast) : null,
        last_message_time: visibleLast?.created_at ?? null,
        ...(visibleLast?.deleted_at
          ? { last_message_kind: 'deleted' as const }
          : visibleLast?.kind === 'system'
            ? { last_message_kind: 'system' as const }
            : {}),
        last_message_files:
          visibleLast && !visibleLast.deleted_at && Number(visibleLast.file_count) > 0
            ? {
                count: Number(visibleLast.file_count),
                name: visibleLast.file_name ?? '',
                ...(visibleLast.file_kind === 'voice' ? { kind: 'voice' as const } : {}),
              }
            : null,
        is_admin: isAdminRole(c.role),
        unread_count: unreadByChat.get(c.id) ?? 0,
        thread_unread_count: repliesByChat.get(c.id) ?? 0,
        ...muteStateOf(c.muted_until),
      };
      if (!c.is_private) {
        return {
          ...base,
          display_name: c.name,
          avatar: avatarUrl(c.avatar),
          other_user: null,
          is_online: false,
        };
      }
      const otherRow = mine.find((m) => m.user_id !== userId);
      const other: ChatMember | null = otherRow ? asSeen(otherRow) : null;
      return {
        ...base,
        display_name: privateChatName(other),
        avatar: other?.avatar ?? null,
        other_user: other
          ? {
              id: other.id,
              username: other.username,
              avatar: other.avatar,
              is_blue_verified: other.is_blue_verified,
            }
          : { id: null, username: DELETED_USERNAME, avatar: null, is_blue_verified: false },
        is_online: other?.is_online ?? false,
      };
    });
  }

  async detail(userId: number, chatId: string) {
    const { chat } = await this.requireMember(userId, chatId);
    const rows = await repo.membersOf(this.deps.db, [chat.id]);
    const asSeen = await this.presenceFor(userId, rows);
    return toDetail(chat, rows.map(asSeen), userId);
  }

  /**
   * The chat as its reader opens it: the detail with how much they have not read and where it starts. Someone
   * previewing a public group they have not joined sees it with `is_member` false and nobody's presence.
   */
  async detailForReader(userId: number, chatId: string): Promise<ChatDetail> {
    const { chat, member } = await this.deps.membership.requireReader(userId, chatId);
    if (!member) {
      const rows = await repo.membersOf(this.deps.db, [chat.id]);
      const members = rows.map((m) => toMember({ ...m, online_status: 0 }, new Set()));
      return { ...toDetail(chat, members, userId), is_member: false, unread_count: 0, first_unread_id: null };
    }
    const [rows, unread] = await Promise.all([
      repo.membersOf(this.deps.db, [chat.id]),
      this.deps.activity.unreadIn(chat.id, userId, {
        lastRead: member.last_read_id,
        clearedBefore: member.cleared_before_id,
      }),
    ]);
    const asSeen = await this.presenceFor(userId, rows);
    const detail = toDetail(chat, rows.map(asSeen), userId);
    return {
      ...detail,
      is_member: true,
      unread_count: unread.count,
      first_unread_id: unread.firstId,
      ...muteStateOf(member.muted_until),
    };
  }

  /** How these chats (row ids) show to this member in a list: name and picture (the partner's, when private). */
  async summaries(userId: number, chatDbIds: number[]) {
    const [chats, members] = await Promise.all([
      repo.chatsByIds(this.deps.db, chatDbIds),
      repo.membersOf(this.deps.db, chatDbIds),
    ]);
    return new Map(
      chats.map((c) => {
        const other = c.is_private
          ? members.find((m) => m.chat_id === c.id && m.user_id !== userId)
          : undefined;
        const partner = other ? toMember(other, new Set()) : null;
        return [
          c.id,
          {
            chat_id: c.chat_id,
            is_private: !!c.is_private,
            display_name: c.is_private ? privateChatName(partner) : c.name,
            avatar: c.is_private ? (partner?.avatar ?? null) : avatarUrl(c.avatar),
          },
        ];
      }),
    );
  }

  /** A group's detail as every member sees it, for broadcasting changes. */
  async groupDetail(chatId: string) {
    const chat = await repo.findChatByPublicId(this.deps.db, chatId);
    if (!chat) return null;
    const rows = await repo.membersOf(this.deps.db, [chat.id]);
    const online = await this.deps.presence.onlineAmong(rows.flatMap((m) => (m.user_id ? [m.user_id] : [])));
    return toDetail(
      chat,
      rows.map((m) => toMember(m, online)),
      0,
    );
  }

  /** Starts or gets the one private chat between two people; the target is a user id or a username. */
  async startPrivate(userId: number, target: string): Promise<{ chat_id: string }> {
    const other = await this.deps.users.activatedIdOf(target);
    if (!other) throw new NotFoundError('User not found.');
    if (other === userId) throw new BadRequestError('You cannot start a chat with yourself.');
    const key = [userId, other].sort((a, b) => a - b).join(':');
    const [existing, refusal] = await Promise.all([
      repo.findChatByPrivateKey(this.deps.db, key),
      this.deps.blocks.refusal(userId, other),
    ]);
    // The blocked person is refused outright; the blocker may open the chat they already have (to unblock there).
    if (refusal === SAFETY_TEXT.cannotMessage || (refusal && !existing)) throw new ForbiddenError(refusal);
    if (existing) return { chat_id: existing.chat_id };
    const gated = await this.deps.gate?.refusal(userId, other);
    if (gated) throw new ForbiddenError(gated);
    try {
      return await this.deps.db.transaction().execute(async (trx) => {
        const now = nowIso();
        const chatId = newChatId();
        const id = await repo.insertChat(trx, {
          chat_id: chatId,
          is_private: 1,
          private_key: key,
          name: '',
          now,
        });
        await repo.insertMember(trx, { chat_id: id, user_id: userId, role: 'member', joined_at: now });
        await repo.insertMember(trx, { chat_id: id, user_id: other, role: 'member', joined_at: now });
        return { chat_id: chatId };
      });
    } catch (err) {
      // Both people pressed Message at once: the unique private key kept one chat; answer with it.
      const raced = await repo.findChatByPrivateKey(this.deps.db, key);
      if (raced) return { chat_id: raced.chat_id };
      throw err;
    }
  }

  /** A new group, its creator its owner: private and open to every member's posts unless `group` says. */
  async createGroup(
    userId: number,
    name: string,
    group: Partial<Omit<GroupCreate, 'group_name'>> = {},
  ): Promise<{ chat_id: string }> {
    const { description = '', visibility = 'private', posting = 'everyone' } = group;
    return this.deps.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const chatId = newChatId();
      const id = await repo.insertChat(
        trx,
        { chat_id: chatId, is_private: 0, private_key: null, name, now },
        { description, visibility, posting, directory_words: directoryWords(name, description) },
      );
      await repo.insertMember(trx, { chat_id: id, user_id: userId, role: 'owner', joined_at: now });
      return { chat_id: chatId };
    });
  }

  /** Hides the conversation so far for this member only ("clear conversation for me"). */
  async clearForMe(userId: number, chatId: string): Promise<void> {
    const { chat } = await this.requireMember(userId, chatId);
    await repo.clearFor(this.deps.db, chat.id, userId, await this.deps.activity.latestId(chat.id));
    this.deps.events.emit('unread.changed', { userIds: [userId] });
  }

  /** The public id of the private chat between two people, if they have one. */
  async privateChatOf(a: number, b: number): Promise<string | null> {
    const key = [a, b].sort((x, y) => x - y).join(':');
    return (await repo.findChatByPrivateKey(this.deps.db, key))?.chat_id ?? null;
  }

  /** Mutes the chat for the caller until `until` (a time to come), or always with null. */
  async mute(userId: number, chatId: string, until: string | null): Promise<MuteState> {
    const { chat } = await this.requireMember(userId, chatId);
    const now = nowIso();
    const stored = until === null ? MUTED_ALWAYS : new Date(until).toISOString();
    if (stored <= now) throw new FieldsError({ until: [SAFETY_TEXT.muteInPast] });
    await mutesRepo.setMutedUntil(this.deps.db, chat.id, userId, stored);
    // The unread total leaves muted chats out (mentions aside).
    this.deps.events.emit('unread.changed', { userIds: [userId] });
    return muteStateOf(stored, now);
  }

  async unmute(userId: number, chatId: string): Promise<MuteState> {
    const { chat } = await this.requireMember(userId, chatId);
    await mutesRepo.setMutedUntil(this.deps.db, chat.id, userId, null);
    this.deps.events.emit('unread.changed', { userIds: [userId] });
    return muteStateOf(null);
  }

  /**
   * How the viewer sees these members: online and last seen as Presence and each person's setting say, except
   * that people a block stands between see each other offline with no last-seen time.
   */
  private async presenceFor(
    viewerId: number,
    rows: repo.MemberRow[],
  ): Promise<(m: repo.MemberRow) => ChatMember> {
    const [online, hidden] = await Promise.all([
      this.deps.presence.onlineAmong(rows.flatMap((m) => (m.user_id ? [m.user_id] : []))),
      this.deps.blocks.relatedTo(viewerId),
    ]);
    return (m) =>
      toMember(m.user_id !== null && hidden.has(m.user_id) ? { ...m, online_status: 0 } : m, online);
  }

  /** Everyone who shares a chat with this person: those who see them in a chat list, header or member list. */
  contactIdsOf(userId: number): Promise<number[]> {
    return repo.contactIdsOf(this.deps.db, userId);
  }

  async memberIds(chatId: string): Promise<number[]> {
    const chat = await repo.findChatByPublicId(this.deps.db, chatId);
    if (!chat) return [];
    const rows = await repo.membersOf(this.deps.db, [chat.id]);
    return rows.flatMap((m) => (m.user_id ? [m.user_id] : []));
  }
}
