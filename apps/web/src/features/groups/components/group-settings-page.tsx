import { type ChatDetail, isAdminRole } from '@parley/protocol';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, Navigate, useParams } from 'react-router';
import { ChatGone, ChatLoadFailed } from '../../../components/chat-load-states';
import { MuteControl } from '../../../components/mute-control';
import { Page } from '../../../components/page';
import { buttonClasses } from '../../../components/ui/button';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { useAuth } from '../../../lib/session/auth-store';
import { useGroup } from '../api/get-group';
import { useGroupFollowsChatList } from '../hooks/use-group-follows-chat-list';
import { GroupAdminView } from './group-admin-view';
import { GroupMemberView } from './group-member-view';

const isAdmin = (detail: ChatDetail, meId: number) =>
  detail.admin?.id === meId || detail.members.some((m) => m.id === meId && isAdminRole(m.role));

/**
 * /groups/{chat_id}/settings: the admin gets 'Manage Chat Room', everyone else 'Group Chat Settings' (SPEC §2,
 * §6). A private chat's id goes to /chats/{chat_id}/settings. `adminCards`: cards of other features (composed in
 * app/) that only the admins see.
 */
export function GroupSettingsPage({ adminCards }: { adminCards?: ReactNode } = {}) {
  const { chatId = '' } = useParams();
  const me = useAuth((s) => s.user);
  const group = useGroup(chatId);
  const t = useT();
  useGroupFollowsChatList(chatId);

  if (!me || group.isPending) return <LoadingState label={t('groups.settings.loading')} fullPage />;
  if (group.isError) {
    const gone = isApiError(group.error) && (group.error.status === 404 || group.error.status === 403);
    return gone ? (
      <ChatGone />
    ) : (
      <ChatLoadFailed onRetry={() => void group.refetch()} busy={group.isFetching} />
    );
  }
  const detail = group.data;
  const id = encodeURIComponent(detail.chat_id);
  if (detail.is_private) return <Navigate to={`/chats/${id}/settings`} replace />;
  const admin = isAdmin(detail, me.id);
  return (
    <Page
      title={admin ? t('groups.settings.manageTitle') : t('groups.settings.memberTitle')}
      description={admin ? <span translate="no">{detail.group_name}</span> : undefined}
      actions={<BackToChat to={`/groups/${id}`} />}
    >
      {admin ? (
        <GroupAdminView key={detail.chat_id} detail={detail} meId={me.id} />
      ) : (
        <GroupMemberView detail={detail} meId={me.id} />
      )}
      {admin && adminCards}
      <MuteControl chatId={detail.chat_id} state={detail} />
    </Page>
  );
}

function BackToChat({ to }: { to: string }) {
  const t = useT();
  return (
    <Link to={to} className={buttonClasses('secondary', 'sm')}>
      <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
      {t('groups.backToChat')}
    </Link>
  );
}
