import { directoryWords, GROUP_AVATAR_MAX_BYTES, type GroupUpdate, MAX_DB_ID } from '@parley/protocol';
import type { Db } from '../../db/database';
import type { AvatarStore } from '../../platform/avatars';
import { BadRequestError, ForbiddenError, NotFoundError, PayloadTooLargeError } from '../../platform/errors';
import type { DomainEvents } from '../../platform/events';
import type { UsersService } from '../accounts/users.service';
import type { AttachmentsService } from '../attachments/attachments.service';
import { Channels } from './channels.service';
import type { ChatRef } from './chat-membership';
import * as repo from './chats.repo';
import type { ChatsService } from './chats.service';
import { nameOf, personName, requireGroupAdmin, requireGroupMember } from './group-access';
import { GroupRoles } from './group-roles';
import * as invitesRepo from './invites.repo';

/**
 * How a group change is told in the chat: a system line ('Ada added Grace') stored and delivered like a
 * message. The messages module's MessagesService is it; the app's wiring hands it over, so chats never
 * imports messages (which depends on chats).
 */
export interface GroupAnnouncer {
  announce(chat: ChatRef, text: string): Promise<void>;
}

export interface GroupsDeps {
  db: Db;
  events: DomainEvents;
  chats: ChatsService;
  announcer: GroupAnnouncer;
  users: UsersService;
  avatars: AvatarStore;
  attachments: AttachmentsService;
  /** A count that moves with every row written to the database (SQLite): the channel directory keeps pages by it. */
  writes?: () => number;
}

/** A group picture's own limit (a profile picture may be 10 MB). */
export const GROUP_AVATAR_TOO_LARGE = 'Group picture must be at most 2MB.';

/**
 * Group management: the owner and the admins edit, add, remove and delete (the owner is never removed); anyone
 * may leave. Every change is announced as a system line and a `chat.updated` event that open clients apply at
 * once. Roles are GroupRoles' (group-roles.ts), the directory and joining Channels' (channels.service.ts).
 */
export class GroupsService {
  readonly roles: GroupRoles;
  readonly channels: Channels;

  constructor(private readonly deps: GroupsDeps) {
    this.roles = new GroupRoles(deps);
    this.channels = new Channels(deps);
  }

  private requireAdmin(userId: number, chatId: string) {
    return requireGroupAdmin(this.deps.chats, userId, chatId);
  }

  private actorName(userId: number) {
    return personName(this.deps.users, userId);
  }

  /**
   * Changes any of a group's fields: name, description, picture, visibility and who may post. Rights are
   * checked before any file is touched; a new picture is re-encoded and stored under a fresh name (removed
   * again if the row update fails), and the old one goes only once the row points at the new one.
   */
  async update(
    userId: number,
    chatId: string,
    changes: GroupUpdate,
    image: Uint8Array | null,
  ): Promise<void> {
    if (image && image.length > GROUP_AVATAR_MAX_BYTES)
      throw new PayloadTooLargeError(GROUP_AVATAR_TOO_LARGE);
    const { chat } = await this.requireAdmin(userId, chatId);
    const name = changes.group_name ?? chat.name;
    const description = changes.description ?? chat.description;
    const avatar = image ? await this.deps.avatars.save(image) : null;
    try {
      await repo.updateChat(this.deps.db, chat.id, {
        name,
        description,
        directory_words: directoryWords(name, description),
        ...(changes.visibility ? { visibility: changes.visibility } : {}),
        ...(changes.posting ? { posting: changes.posting } : {}),
        ...(avatar ? { avatar } : {}),
      });
    } catch (err) {
      await this.deps.avatars.remove(avatar);
      throw err;
    }
    // A group turning private keeps only the links its admins made: members could make them while it was open.
    const closing = chat.visibility === 'public' && changes.visibility === 'private';
    if (closing) await invitesRepo.revokeMembersLinks(this.deps.db, chat.id, new Date().toISOString());
    if (name !== chat.name) {
      await this.deps.announcer.announce(
        chat,
        `${await this.actorName(userId)} renamed the group to ${name}`,
      );
    }
    this.deps.events.emit('chat.updated', { chatId, ...(closing ? { closedToWatchers: true } : {}) });
    if (avatar) await this.deps.avatars.remove(chat.avatar);
  }

  async addMembers(userId: number, chatId: string, targets: (string | number)[]) {
    const { chat } = await this.requireAdmin(userId, chatId);
    // Ids past a 32-bit integer name nobody: findActivated leaves them out.
    const users = await this.deps.users.findActivated(targets);
    if (users.length === 0) throw new NotFoundError('User not found.');
    const current = new Set((await repo.membersOf(this.deps.db, [chat.id])).map((m) => m.user_id));
    const fresh = users.filter((u) => !current.has(u.id));
    const now = new Date().toISOString();
    for (const u of fresh) {
      await repo.insertMember(this.deps.db, {
        chat_id: chat.id,
        user_id: u.id,
        role: 'member',
        joined_at: now,
      });
    }
    const actor = await this.actorName(userId);
    for (const u of fresh) await this.deps.announcer.announce(chat, `${actor} added ${nameOf(u)}`);
    if (fresh.length > 0) {
      this.deps.events.emit('chat.updated', { chatId });
      this.deps.events.emit('chats.changed', { userIds: fresh.map((u) => u.id) });
    }
    return this.deps.chats.detail(userId, chatId);
  }

  /** The owner removes anyone else; an admin removes members (not the owner, nor another admin). */
  async removeMember(userId: number, chatId: string, targetId: number) {
    const { chat, member } = await this.requireAdmin(userId, chatId);
    if (targetId === userId)
      throw new BadRequestError('The admin cannot be removed. Leave the group instead.');
    if (!Number.isSafeInteger(targetId) || targetId < 1 || targetId > MAX_DB_ID)
      throw new NotFoundError('That person is not a member of this group.');
    const target = await repo.findMembership(this.deps.db, chat.id, targetId);
    if (!target) throw new NotFoundError('That person is not a member of this group.');
    if (target.role === 'owner') throw new ForbiddenError('The owner cannot be removed.');
    if (target.role === 'admin' && member.role !== 'owner')
      throw new ForbiddenError('Only the owner can remove an admin.');
    await repo.deleteMember(this.deps.db, chat.id, targetId);
    const [removed] = await this.deps.users.findActivated([targetId]);
    this.deps.events.emit('member.removed', { chatId, userId: targetId });
    await this.deps.announcer.announce(
      chat,
      `${await this.actorName(userId)} removed ${removed ? nameOf(removed) : 'a member'}`,
    );
    this.deps.events.emit('chat.updated', { chatId });
    return this.deps.chats.detail(userId, chatId);
  }

  /**
   * A member leaves; an owner who leaves hands the group to the longest-standing admin, else the
   * longest-standing member; an empty group goes.
   */
  async leave(userId: number, chatId: string): Promise<void> {
    const { chat, member } = await requireGroupMember(this.deps.chats, userId, chatId);
    const name = await this.actorName(userId);
    const fileKeys = await this.deps.attachments.keysOfChat(chat.id);
    const deleted = await this.deps.db.transaction().execute(async (trx) => {
      await repo.deleteMember(trx, chat.id, userId);
      const rest = (await repo.membersOf(trx, [chat.id])).filter((m) => m.user_id !== null);
      if (rest.length === 0) {
        await repo.deleteChat(trx, chat.id);
        return true;
      }
      if (member.role === 'owner') {
        const bySeniority = [...rest].sort(
          (a, b) => a.joined_at.localeCompare(b.joined_at) || a.member_id - b.member_id,
        );
        const heir = bySeniority.find((m) => m.role === 'admin') ?? bySeniority[0];
        if (heir) await repo.setRole(trx, heir.member_id, 'owner');
      }
      return false;
    });
    this.deps.events.emit('member.removed', { chatId, userId });
    if (deleted) {
      this.deps.events.emit('chat.deleted', { chatId, avatar: chat.avatar, memberIds: [] });
      await this.deps.avatars.remove(chat.avatar);
      await this.deps.attachments.removeKeys(fileKeys);
      return;
    }
    await this.deps.announcer.announce(chat, `${name} left`);
    this.deps.events.emit('chat.updated', { chatId });
  }

  async deleteGroup(userId: number, chatId: string): Promise<void> {
    const { chat } = await this.requireAdmin(userId, chatId);
    const memberIds = await this.deps.chats.memberIds(chatId);
    const fileKeys = await this.deps.attachments.keysOfChat(chat.id);
    await repo.deleteChat(this.deps.db, chat.id);
    await this.deps.attachments.removeKeys(fileKeys);
    this.deps.events.emit('chat.deleted', { chatId, avatar: chat.avatar, memberIds });
    await this.deps.avatars.remove(chat.avatar);
  }
}
