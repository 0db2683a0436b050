import { type ChatDetail, DELETED_USERNAME, privateChatName } from '@parley/protocol';
import { ArrowLeft, BadgeCheck, Settings } from 'lucide-react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { type MessageId, useT } from '../../../lib/i18n/i18n';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { lastSeenWords } from '../../../lib/text/locale-format';
import { cn } from '../../../lib/ui/cn';

const STATUS_TEXT: Record<SocketStatus, MessageId> = {
  connected: 'room.status.connected',
  connecting: 'room.status.connecting',
  reconnecting: 'room.status.reconnecting',
  disconnected: 'room.status.disconnected',
};

/** The connection indicator: a dot and a word, green only while connected. */
export function ConnectionIndicator({ status, className }: { status: SocketStatus; className?: string }) {
  const t = useT();
  const tone =
    status === 'connected'
      ? 'bg-emerald-500'
      : status === 'disconnected'
        ? 'bg-red-500'
        : 'animate-pulse bg-amber-400';
  return (
    <span
      role="status"
      className={cn('inline-flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400', className)}
      data-status={status}
    >
      <span aria-hidden="true" className={cn('size-2 rounded-full', tone)} />
      {t(STATUS_TEXT[status])}
    </span>
  );
}

export interface RoomHeaderProps {
  chat: ChatDetail;
  status: SocketStatus;
  inChatCount: number;
  inChatUserIds: number[];
}

const iconButton =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-600 dark:text-slate-400 transition-colors hover:bg-slate-100 dark:hover:bg-slate-800 hover:text-slate-900 dark:hover:text-white';

/**
 * SPEC §2 room header. Private: the partner with a dot, green while that person is in this chat room (grey
 * otherwise, and always for a deleted account), and their presence in words, green while they are online.
 * Group: name, 'Group chat', '{n} online', connection indicator.
 */
export function RoomHeader({ chat, status, inChatCount, inChatUserIds }: RoomHeaderProps) {
  const t = useT();
  const id = encodeURIComponent(chat.chat_id);
  const settingsPath = chat.is_private ? `/chats/${id}/settings` : `/groups/${id}/settings`;
  const settingsLabel = chat.is_private ? t('room.header.chatSettings') : t('room.header.groupSettings');
  return (
    <header className="flex items-center gap-2 border-b border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 px-2 py-2 sm:px-3">
      <Link
        to="/chats"
        aria-label={t('room.header.back')}
        title={t('room.header.back')}
        className={iconButton}
      >
        <ArrowLeft aria-hidden="true" className="size-5 rtl:-scale-x-100" />
      </Link>
      {chat.is_private ? (
        <PrivateTitle chat={chat} status={status} inChatUserIds={inChatUserIds} />
      ) : (
        <div className="flex min-w-0 flex-1 items-center gap-3">
          <Avatar src={chat.chat_avatar ?? chat.avatar} name={chat.display_name} group lazy />
          <div className="min-w-0">
            <h1 translate="no" className="truncate font-semibold text-slate-900 dark:text-slate-100">
              {chat.display_name || chat.group_name}
            </h1>
            <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500 dark:text-slate-400">
              <span>{t('room.header.group')}</span>
              <span aria-hidden="true">·</span>
              <span data-testid="online-count">{t('room.header.online', { count: inChatCount })}</span>
              <ConnectionIndicator status={status} />
            </p>
          </div>
        </div>
      )}
      <Link to={settingsPath} aria-label={settingsLabel} title={settingsLabel} className={iconButton}>
        <Settings aria-hidden="true" className="size-5" />
      </Link>
    </header>
  );
}

function PrivateTitle({ chat, status, inChatUserIds }: Omit<RoomHeaderProps, 'inChatCount'>) {
  const t = useT();
  const partner = chat.members[0];
  const deleted = !partner || partner.username === DELETED_USERNAME;
  const name = privateChatName(partner);
  const inRoom = !deleted && partner.id !== null && inChatUserIds.includes(partner.id);
  const lost = status === 'reconnecting' || status === 'disconnected';
  // Online follows the presence frames (lib/queries/presence.ts writes them into this chat's detail).
  const online = !deleted && (inRoom || partner.is_online);
  let presence = '';
  if (partner && !deleted) {
    if (inRoom) presence = t('room.header.inChat');
    else if (partner.is_online) presence = t('room.header.online1');
    else if (partner.last_seen)
      presence = t('room.header.lastSeen', { when: lastSeenWords(partner.last_seen) });
    else presence = t('room.header.offline');
  }
  const title = (
    <>
      <span className="relative shrink-0">
        <Avatar src={deleted ? null : (partner?.avatar ?? chat.avatar)} name={name} tone="muted" lazy />
        <span
          role="img"
          aria-label={inRoom ? t('room.header.inChat') : t('room.header.notInChat')}
          data-presence={inRoom ? 'in-chat' : 'away'}
          className={cn(
            'absolute end-0 bottom-0 size-3 rounded-full ring-2 ring-white dark:ring-slate-900',
            inRoom ? 'bg-emerald-500' : 'bg-slate-400',
          )}
        />
      </span>
      <span className="min-w-0">
        <span className="flex items-center gap-1">
          <h1 translate="no" className="truncate font-semibold text-slate-900 dark:text-slate-100">
            {name}
          </h1>
          {!deleted && partner.is_blue_verified && (
            <BadgeCheck
              role="img"
              aria-label={t('room.header.verified')}
              className="size-4 shrink-0 text-sky-500"
            />
          )}
        </span>
        <span className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500 dark:text-slate-400">
          {/* Presence is known only while connected: after a drop the line says the connection's state instead. */}
          {presence && !lost && (
            <span
              data-testid="partner-presence"
              data-online={online}
              className={cn(online && 'font-medium text-emerald-700 dark:text-emerald-400')}
            >
              {presence}
            </span>
          )}
          {status !== 'connected' && <ConnectionIndicator status={status} />}
        </span>
      </span>
    </>
  );
  if (deleted || !partner) return <div className="flex min-w-0 flex-1 items-center gap-3">{title}</div>;
  return (
    <Link
      to={`/user/${encodeURIComponent(partner.username)}`}
      className="flex min-w-0 flex-1 items-center gap-3 rounded-lg py-0.5 pe-2"
    >
      {title}
    </Link>
  );
}
