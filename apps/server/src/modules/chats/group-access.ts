import { CHANNEL_TEXT, DELETED_DISPLAY_NAME, displayNameOf, isAdminRole } from '@parley/protocol';
import { BadRequestError, ForbiddenError } from '../../platform/errors';
import type { UsersService } from '../accounts/users.service';
import type { ChatsService } from './chats.service';

// Who may manage a group, shared by the group services: members see it (others get 404, as for no such chat);
// the owner and the admins manage it.

export async function requireGroupMember(
  chats: Pick<ChatsService, 'requireMember'>,
  userId: number,
  chatId: string,
) {
  const found = await chats.requireMember(userId, chatId);
  if (found.chat.is_private) throw new BadRequestError('This is a private chat, not a group.');
  return found;
}

/** The group and the caller's membership, when the caller is its owner or one of its admins. */
export async function requireGroupAdmin(
  chats: Pick<ChatsService, 'requireMember'>,
  userId: number,
  chatId: string,
) {
  const found = await requireGroupMember(chats, userId, chatId);
  if (!isAdminRole(found.member.role)) throw new ForbiddenError(CHANNEL_TEXT.onlyAdmins);
  return found;
}

export const nameOf = (u: {
  username: string | null;
  first_name: string | null;
  last_name: string | null;
  displayname: string | null;
}) => displayNameOf({ ...u, username: u.username ?? DELETED_DISPLAY_NAME });

/** How a person is named in a group's system lines ('Ada added Grace'). */
export async function personName(
  users: Pick<UsersService, 'findActivated'>,
  userId: number,
): Promise<string> {
  const [me] = await users.findActivated([userId]);
  return me ? nameOf(me) : 'Someone';
}
