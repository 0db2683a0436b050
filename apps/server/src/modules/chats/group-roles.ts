import { CHANNEL_TEXT, MAX_DB_ID } from '@parley/protocol';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../platform/errors';
import * as repo from './chats.repo';
import { requireGroupAdmin, requireGroupMember } from './group-access';
import type { GroupsDeps } from './groups.service';

/**
 * Members' roles: one owner, admins who manage the group with the owner, and members. The owner and the admins
 * promote and demote (nobody demotes the owner); only the owner hands the group to another member, and stays
 * as an admin. Each change reaches the room as chat_updated, and as chats_changed the people it concerns (their
 * list's Admin badge) and every admin, whose open settings have no room socket but manage these roles.
 */
export class GroupRoles {
  constructor(private readonly deps: Pick<GroupsDeps, 'db' | 'events' | 'chats'>) {}

  async setRole(userId: number, chatId: string, targetId: number, role: 'admin' | 'member') {
    const { chat } = await requireGroupAdmin(this.deps.chats, userId, chatId);
    const target = await this.memberOf(chat.id, targetId);
    if (target.role === 'owner') throw new ForbiddenError(CHANNEL_TEXT.ownerStays);
    if (target.role !== role) {
      await repo.setRole(this.deps.db, target.id, role);
      await this.changed(chat.id, chatId, [targetId]);
    }
    return this.deps.chats.detail(userId, chatId);
  }

  async transfer(userId: number, chatId: string, targetId: number) {
    const { chat, member } = await requireGroupMember(this.deps.chats, userId, chatId);
    if (member.role !== 'owner') throw new ForbiddenError(CHANNEL_TEXT.onlyOwner);
    if (targetId === userId) throw new BadRequestError(CHANNEL_TEXT.ownerIsYou);
    const target = await this.memberOf(chat.id, targetId);
    await this.deps.db.transaction().execute(async (trx) => {
      await repo.setRole(trx, member.id, 'admin');
      await repo.setRole(trx, target.id, 'owner');
    });
    await this.changed(chat.id, chatId, [userId, targetId]);
    return this.deps.chats.detail(userId, chatId);
  }

  private async memberOf(chatDbId: number, targetId: number) {
    const target =
      Number.isSafeInteger(targetId) && targetId >= 1 && targetId <= MAX_DB_ID
        ? await repo.findMembership(this.deps.db, chatDbId, targetId)
        : undefined;
    if (!target) throw new NotFoundError(CHANNEL_TEXT.notMember);
    return target;
  }

  private async changed(chatDbId: number, chatId: string, userIds: number[]): Promise<void> {
    this.deps.events.emit('chat.updated', { chatId });
    const admins = await repo.adminIdsOf(this.deps.db, chatDbId);
    this.deps.events.emit('chats.changed', { userIds: [...new Set([...userIds, ...admins])] });
  }
}
