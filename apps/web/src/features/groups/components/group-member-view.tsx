import { type ChatDetail, memberNameOf } from '@parley/protocol';
import { LogOut } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { toast } from '../../../lib/ui/toast';
import { useLeaveGroup } from '../api/leave-group';
import { GroupMembersCard } from './group-members-card';
import { InviteLinksCard } from './invite-links-card';

/**
 * 'Group Chat Settings' for a member: the group, its admin and members, a public group's invite links (any of its
 * members may make them), and 'Leave Group'.
 */
export function GroupMemberView({ detail, meId }: { detail: ChatDetail; meId: number }) {
  const [confirming, setConfirming] = useState(false);
  const leave = useLeaveGroup(detail.chat_id);
  const navigate = useNavigate();
  const t = useT();
  const admin = detail.admin;
  const adminName = admin
    ? memberNameOf({ username: admin.username, name: admin.profile.name })
    : t('groups.member.noAdmin');

  const leaveGroup = () =>
    leave.mutate(undefined, {
      onSuccess: () => {
        toast.success(t('groups.left'));
        void navigate('/chats', { replace: true });
      },
      onError: (e) => {
        setConfirming(false);
        toast.error(serverErrorOr(e, t('groups.leaveFailed')));
      },
    });

  return (
    <>
      <Card>
        <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-start">
          <Avatar src={detail.chat_avatar ?? detail.avatar} group size="2xl" />
          <div className="min-w-0">
            <h2
              className="text-xl font-semibold break-words text-slate-900 dark:text-slate-100"
              data-testid="group-name"
              translate="no"
            >
              {detail.group_name || detail.display_name}
            </h2>
            {detail.description && (
              <p
                translate="no"
                className="mt-1 text-sm break-words whitespace-pre-wrap text-slate-600 dark:text-slate-400"
              >
                {detail.description}
              </p>
            )}
            <p className="mt-2 text-sm text-slate-600 dark:text-slate-400" data-testid="group-kind">
              {detail.visibility === 'public' ? t('groups.kind.public') : t('groups.kind.private')}
              {detail.posting === 'admins' && ` · ${t('groups.kind.onlyAdmins')}`}
            </p>
            <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
              <span className="font-medium text-slate-700 dark:text-slate-300">
                {t('groups.member.admin')}
              </span>{' '}
              <span data-testid="group-admin" translate={admin ? 'no' : undefined}>
                {adminName}
              </span>
            </p>
          </div>
        </div>
      </Card>

      <GroupMembersCard detail={detail} meId={meId} />

      {detail.visibility === 'public' && <InviteLinksCard detail={detail} canRevoke={false} />}

      <div className="flex justify-end">
        <Button variant="danger" onClick={() => setConfirming(true)} className="w-full sm:w-auto">
          <LogOut aria-hidden="true" className="size-4 rtl:-scale-x-100" />
          {t('groups.leave')}
        </Button>
      </div>

      <ConfirmDialog
        open={confirming}
        title={t('groups.leave.confirm')}
        confirmLabel={t('groups.leave')}
        danger
        busy={leave.isPending}
        onConfirm={leaveGroup}
        onCancel={() => setConfirming(false)}
      >
        {t('groups.leave.body')}
      </ConfirmDialog>
    </>
  );
}
