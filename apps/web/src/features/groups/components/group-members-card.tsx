import { type ChatDetail, type ChatMember, memberNameOf } from '@parley/protocol';
import { type ReactNode, useId, useState } from 'react';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import { useChangeMemberRole } from '../api/change-member-role';
import { useTransferOwnership } from '../api/transfer-ownership';
import '../lib/group-texts';
import { Slots, slotsFor } from '../../../lib/i18n/slotted';
import { type RoleAction, roleOf } from '../lib/member-roles';
import { MemberList } from './member-list';

/**
 * The members card: the count, the list with each one's role, and for the owner and the admins the role menus
 * (promote, demote; the owner also hands the group over, after a confirmation). `children` follows the list.
 */
export function GroupMembersCard({
  detail,
  meId,
  manage = false,
  onRemove,
  removingId,
  children,
}: {
  detail: ChatDetail;
  meId: number;
  /** The viewer is the owner or an admin: the role menus show. */
  manage?: boolean;
  onRemove?: (member: ChatMember) => void;
  removingId?: number | null;
  children?: ReactNode;
}) {
  const titleId = useId();
  const chatId = detail.chat_id;
  const changeRole = useChangeMemberRole(chatId);
  const transfer = useTransferOwnership(chatId);
  const [handingTo, setHandingTo] = useState<ChatMember | null>(null);
  const count = detail.members.length;
  const t = useT();

  const onAction = (member: ChatMember, action: RoleAction) => {
    if (member.id === null) return;
    if (action === 'transfer') return setHandingTo(member);
    const who = memberNameOf(member);
    const role = action === 'promote' ? 'admin' : 'member';
    changeRole.mutate(
      { userId: member.id, role },
      {
        onSuccess: () =>
          toast.success(
            t(role === 'admin' ? 'groups.members.nowAdmin' : 'groups.members.noLongerAdmin', { name: who }),
          ),
        onError: (e) => toast.error(serverErrorOr(e, t('groups.members.roleFailed'))),
      },
    );
  };

  const handOver = () => {
    const member = handingTo;
    if (member?.id == null) return;
    transfer.mutate(member.id, {
      onSuccess: () => {
        setHandingTo(null);
        toast.success(t('groups.members.nowOwner', { name: memberNameOf(member) }));
      },
      onError: (e) => {
        setHandingTo(null);
        toast.error(serverErrorOr(e, t('groups.members.transferFailed')));
      },
    });
  };

  return (
    <Card>
      <header className="mb-3 flex items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-base font-semibold text-slate-900 dark:text-slate-100">
          {t('groups.members.title')}
        </h2>
        <span className="text-sm text-slate-500 dark:text-slate-400" data-testid="member-count">
          {t('groups.members.count', { count })}
        </span>
      </header>
      <MemberList
        members={detail.members}
        meId={meId}
        labelledBy={titleId}
        onRemove={onRemove}
        removingId={removingId}
        roles={
          manage
            ? {
                viewerRole: roleOf(detail.members, meId),
                onAction,
                busyId: changeRole.isPending ? (changeRole.variables?.userId ?? null) : null,
              }
            : undefined
        }
      />
      {children}
      <ConfirmDialog
        open={handingTo !== null}
        title={t('groups.members.transferConfirm')}
        confirmLabel={t('groups.roles.transfer')}
        danger
        busy={transfer.isPending}
        onConfirm={handOver}
        onCancel={() => setHandingTo(null)}
      >
        <Slots
          text={t('groups.members.transferBody', slotsFor(['name', 'group']))}
          nodes={[
            handingTo ? (
              <span key="name" translate="no">
                {memberNameOf(handingTo)}
              </span>
            ) : (
              t('groups.members.thisMember')
            ),
            <span key="group" translate="no">
              {detail.group_name}
            </span>,
          ]}
        />
      </ConfirmDialog>
    </Card>
  );
}
