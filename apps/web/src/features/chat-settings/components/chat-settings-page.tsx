import { DELETED_USERNAME, privateChatName } from '@parley/protocol';
import { ArrowLeft, BadgeCheck, Eraser, UserRound } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { BlockButton } from '../../../components/block-button';
import { ChatGone, ChatLoadFailed } from '../../../components/chat-load-states';
import { MuteControl } from '../../../components/mute-control';
import { Page } from '../../../components/page';
import { Button, buttonClasses } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError, serverErrorOr } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { SLOT, Slotted } from '../../../lib/i18n/slotted';
import { toast } from '../../../lib/ui/toast';
import { useClearConversation } from '../api/clear-conversation';
import { usePrivateChat } from '../api/get-private-chat';

/**
 * /chats/{chat_id}/settings (DESIGN §1): the other person's card, a link to their profile, and clearing the
 * conversation for oneself. A group's id goes to /groups/{chat_id}/settings. `extra`: cards of other features
 * (composed in app/), shown after the mute control.
 */
export function ChatSettingsPage({ extra }: { extra?: ReactNode } = {}) {
  const { chatId = '' } = useParams();
  const chat = usePrivateChat(chatId);
  const clear = useClearConversation(chatId);
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const t = useT();

  if (chat.isPending) return <LoadingState label={t('room.loadingChat')} fullPage />;
  if (chat.isError) {
    const gone = isApiError(chat.error) && (chat.error.status === 404 || chat.error.status === 403);
    return gone ? (
      <ChatGone />
    ) : (
      <ChatLoadFailed onRetry={() => void chat.refetch()} busy={chat.isFetching} />
    );
  }
  const detail = chat.data;
  const id = encodeURIComponent(detail.chat_id);
  if (!detail.is_private) return <Navigate to={`/groups/${id}/settings`} replace />;

  const partner = detail.members[0];
  const deleted = !partner || partner.username === DELETED_USERNAME;
  const name = privateChatName(partner);

  const clearNow = () =>
    clear.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast.success(t('groups.chat.cleared'));
        void navigate(`/chats/${id}`, { replace: true });
      },
      onError: (e) => {
        setConfirming(false);
        toast.error(serverErrorOr(e, t('groups.chat.clearFailed')));
      },
    });

  return (
    <Page
      title={t('room.header.chatSettings')}
      actions={
        <Link to={`/chats/${id}`} className={buttonClasses('secondary', 'sm')}>
          <ArrowLeft aria-hidden="true" className="size-4 rtl:-scale-x-100" />
          {t('groups.backToChat')}
        </Link>
      }
    >
      <Card>
        <div className="flex flex-col items-center gap-4 text-center sm:flex-row sm:text-start">
          <Avatar src={deleted ? null : partner.avatar} name={name} size="2xl" />
          <div className="min-w-0 flex-1">
            <h2 className="flex items-center justify-center gap-1.5 text-xl font-semibold text-slate-900 dark:text-slate-100 sm:justify-start">
              <span translate="no" className="break-words">
                {name}
              </span>
              {!deleted && partner.is_blue_verified && (
                <BadgeCheck
                  role="img"
                  aria-label={t('room.header.verified')}
                  className="size-5 shrink-0 text-sky-500"
                />
              )}
            </h2>
            {!deleted && (
              <p className="text-sm text-slate-500 dark:text-slate-400">
                <span dir="ltr" translate="no" className="inline-block max-w-full truncate align-bottom">
                  @{partner.username}
                </span>
              </p>
            )}
            {deleted && (
              <p className="text-sm text-slate-500 dark:text-slate-400">{t('groups.chat.deletedAccount')}</p>
            )}
          </div>
          {!deleted && (
            <Link
              to={`/user/${encodeURIComponent(partner.username)}`}
              className={buttonClasses('secondary', 'md', 'w-full sm:w-auto')}
            >
              <UserRound aria-hidden="true" className="size-4" />
              {t('groups.chat.viewProfile')}
            </Link>
          )}
        </div>
      </Card>

      <MuteControl chatId={detail.chat_id} state={detail} />

      {extra}

      {!deleted && (
        <Card>
          <CardHeader
            title={t('groups.chat.block')}
            description={
              <Slotted text={t('groups.chat.blockHint', { name: SLOT })}>
                <span translate="no">{name}</span>
              </Slotted>
            }
          />
          <div className="mt-4 flex justify-end">
            <BlockButton username={partner.username} name={name} className="w-full sm:w-auto" />
          </div>
        </Card>
      )}

      <Card>
        <CardHeader
          title={t('groups.chat.clear')}
          description={
            deleted ? (
              t('groups.chat.clearHintDeleted')
            ) : (
              <Slotted text={t('groups.chat.clearHint', { name: SLOT })}>
                <span translate="no">{name}</span>
              </Slotted>
            )
          }
        />
        <div className="mt-4 flex justify-end">
          <Button variant="danger" onClick={() => setConfirming(true)} className="w-full sm:w-auto">
            <Eraser aria-hidden="true" className="size-4" />
            {t('groups.chat.clear')}
          </Button>
        </div>
      </Card>

      <ConfirmDialog
        open={confirming}
        title={t('groups.chat.clearConfirm')}
        confirmLabel={t('groups.chat.clear')}
        danger
        busy={clear.isPending}
        onConfirm={clearNow}
        onCancel={() => setConfirming(false)}
      >
        {t('groups.chat.clearBody')}
      </ConfirmDialog>
    </Page>
  );
}
