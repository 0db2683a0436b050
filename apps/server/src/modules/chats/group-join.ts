import type { ChatDetail } from '@parley/protocol';
import type { ChatRow, Executor } from './chats.repo';
import * as repo from './chats.repo';
import { personName } from './group-access';
import type { GroupsDeps } from './groups.service';

export type GroupJoinDeps = Pick<GroupsDeps, 'db' | 'events' | 'chats' | 'announcer' | 'users'>;

/**
 * Someone joining a group of their own accord: a public group's join, or an invite link's accept. A member
 * already in the group joins nothing and gets its detail. Otherwise `admit` runs first inside the joining
 * transaction (it refuses by throwing, and may write there: a link's use), then the membership is written. The
 * members get '{name} joined' and the group's new detail, the joiner's chat list changes, and the joiner's
 * sockets watching the room reopen as a member's ('member.joined').
 */
export async function joinGroup(
  deps: GroupJoinDeps,
  userId: number,
  chat: ChatRow,
  admit: (trx: Executor) => Promise<void>,
): Promise<ChatDetail> {
  const { db, chats, events } = deps;
  const chatId = chat.chat_id;
  const isMember = async () => !!(await repo.findMembership(db, chat.id, userId));
  if (await isMember()) return chats.detailForReader(userId, chatId);
  try {
    await db.transaction().execute(async (trx) => {
      await admit(trx);
      await repo.insertMember(trx, {
        chat_id: chat.id,
        user_id: userId,
        role: 'member',
        joined_at: new Date().toISOString(),
      });
    });
  } catch (err) {
    // Two joins at once by the same person: the unique membership kept one (and the admit it came with).
    if (await isMember()) return chats.detailForReader(userId, chatId);
    throw err;
  }
  await deps.announcer.announce(chat, `${await personName(deps.users, userId)} joined`);
  events.emit('member.joined', { chatId, userId });
  events.emit('chat.updated', { chatId });
  events.emit('chats.changed', { userIds: [userId] });
  return chats.detailForReader(userId, chatId);
}
