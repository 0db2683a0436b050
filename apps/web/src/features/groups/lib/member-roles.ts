import { type ChatMember, DELETED_USERNAME, isAdminRole, type MemberRole } from '@parley/protocol';
import type { MessageId } from '../../../lib/i18n/i18n';

// Who may change whose role in a group, as the server decides it: the owner and the admins make members admins
// and admins members again, nobody changes the owner's role, and only the owner hands the group to someone else
// (staying on as an admin).

export type RoleAction = 'promote' | 'demote' | 'transfer';

/** The role badge beside a member's name (its text's id); none for a plain member. */
export const ROLE_BADGE: Record<MemberRole, MessageId | null> = {
  owner: 'groups.roles.owner',
  admin: 'groups.roles.admin',
  member: null,
};

/** What the viewer (with `viewerRole`) may do to `member`'s role, in the menu's order; none for themselves. */
export function roleActions(
  viewerRole: MemberRole | null,
  meId: number,
  member: Pick<ChatMember, 'id' | 'role' | 'username'>,
): RoleAction[] {
  if (member.id === null || member.id === meId || member.username === DELETED_USERNAME) return [];
  if (!isAdminRole(viewerRole) || member.role === 'owner') return [];
  const actions: RoleAction[] = [member.role === 'admin' ? 'demote' : 'promote'];
  if (viewerRole === 'owner') actions.push('transfer');
  return actions;
}

/** The viewer's own role in the group, or null when they are not in its member list. */
export const roleOf = (
  members: readonly Pick<ChatMember, 'id' | 'role'>[],
  userId: number,
): MemberRole | null => members.find((m) => m.id === userId)?.role ?? null;
