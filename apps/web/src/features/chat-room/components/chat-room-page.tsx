import { type AuthUser, type ChatDetail, displayNameOf, memberNameOf } from '@parley/protocol';
import { TriangleAlert, X } from 'lucide-react';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { ChatGone, ChatLoadFailed } from '../../../components/chat-load-states';
import { LatestAnnouncement } from '../../../components/latest-announcement';
import { useOnline, useOwnOfflineNotice } from '../../../components/offline-bar';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { useAuth } from '../../../lib/session/auth-store';
import { usePageTitle } from '../../../lib/ui/document-title';
import { firstScreenDrawn } from '../../../lib/ui/first-screen';
import { useChat } from '../api/get-chat';
import { useLatestMessages } from '../api/get-messages';
import { roomEnteredAt } from '../api/room-queries';
import { useFocusOnJoin, useWatchingActions } from '../hooks/use-channel-watch';
import { useChatRoom } from '../hooks/use-chat-room';
import { useMessageActions } from '../hooks/use-message-actions';
import { useMessageParam } from '../hooks/use-message-param';
import { typingText } from '../hooks/use-typing-users';
import { COMPOSER_BOX_SELECTOR, composerSlot } from '../lib/composer-slot';
import { lastEditable } from '../lib/message-changes';
import { buildRows, withUnreadDivider } from '../lib/message-rows';
import { detailReady, showsStoredCopy } from '../lib/room-open';
import { AttachmentPreview } from './attachment-preview';
import { Composer } from './composer';
import { ConnectionStrip, roomBannerError } from './connection-strip';
import { AdminsOnlyNote, JoinBar } from './join-bar';
import { MessageActionsContext } from './message-actions-context';
import { MessageDialogs } from './message-dialogs';
import { MessageList } from './message-list';
import { PendingActionsContext } from './pending-actions-context';
import { PinnedBar } from './pinned-bar';
import { RoomHeader } from './room-header';

type RoomKind = 'private' | 'group';
const roomPath = (chat: ChatDetail) =>
  `/${chat.is_private ? 'chats' : 'groups'}/${encodeURIComponent(chat.chat_id)}`;

/**
 * Fills the space under the app header; the composer sits at the bottom edge. From 1024 px the room is the
 * right pane of the two-pane layout (app/chats-layout.tsx) and takes its whole width and height.
 */
const FRAME =
  'mx-auto flex h-[calc(100dvh-3.5rem-1px)] w-full max-w-4xl flex-col bg-slate-50 sm:border-x sm:border-slate-200 lg:h-full lg:max-w-none lg:border-x-0 dark:bg-slate-950 dark:sm:border-slate-800';

export const PrivateChatRoomPage = () => <ChatRoomRoute kind="private" />;
export const GroupChatRoomPage = () => <ChatRoomRoute kind="group" />;

/** A new chat id remounts the room, so no state of the previous chat leaks into the next. */
function ChatRoomRoute({ kind }: { kind: RoomKind }) {
  const { chatId = '' } = useParams();
  const t = useT();
  const user = useAuth((s) => s.user);
  if (!user) return <LoadingState label={t('room.loadingChat')} />;
  return <ChatRoom key={chatId} chatId={chatId} kind={kind} me={user} />;
}

function ChatRoom({ chatId, kind, me }: { chatId: string; kind: RoomKind; me: AuthUser }) {
  const t = useT();
  const chat = useChat(chatId);
  const latest = useLatestMessages(chatId);
  const room = useChatRoom(chatId, me.id, latest.data, chat.data?.is_member === false);
  // The room says it is offline in its own layout, under its header (ConnectionStrip).
  useOwnOfflineNotice();
  const online = useOnline();

  // The detail is fetched afresh on every entry: its first unread message decides where the room opens.
  // Offline, or with the server away, the detail last loaded (the persisted cache) opens the room, marked as
  // the saved copy; it is fetched again once the room's socket opens (useChatRoom), which retries by itself.
  const [enteredAt] = useState(() => roomEnteredAt(chatId));
  const loading =
    chat.isPending || !detailReady(chat, enteredAt) || (latest.isPending && !room.messages.loaded);
  // The room, its error or its 'not found' is drawn: what the first screen let wait may go (lib/ui/first-screen.ts).
  useEffect(() => {
    if (!loading) firstScreenDrawn();
  }, [loading]);
  const strip = (storedCopy: boolean, onTryNow?: () => void) => (
    <ConnectionStrip
      status={room.status}
      retryAt={room.retryAt}
      online={online}
      storedCopy={storedCopy}
      onTryNow={onTryNow}
    />
  );
  if (loading) {
    return (
      <div className={FRAME}>
        {strip(false)}
        <LoadingState label={t('room.loadingChat')} />
      </div>
    );
  }
  if (chat.isError && isApiError(chat.error) && (chat.error.status === 404 || chat.error.status === 403)) {
    return (
      <div className={FRAME}>
        <ChatGone />
      </div>
    );
  }
  const detail = chat.data;
  if (!detail || (latest.isError && !room.messages.loaded)) {
    // Tried again by itself whenever the socket opens; the strip says when it next tries.
    return (
      <div className={FRAME}>
        {strip(false)}
        <ChatLoadFailed
          onRetry={() => {
            void chat.refetch();
            void latest.refetch();
            room.reconnectNow();
          }}
          busy={chat.isFetching || latest.isFetching}
        />
      </div>
    );
  }
  if ((kind === 'private') !== detail.is_private) return <Navigate to={roomPath(detail)} replace />;
  const storedCopy = showsStoredCopy(chat, enteredAt);
  return (
    <Room
      detail={detail}
      me={me}
      room={room}
      strip={strip(storedCopy, room.reconnectNow)}
      bannerError={roomBannerError(room.error, { status: room.status, online, storedCopy })}
    />
  );
}

function Room({
  detail,
  me,
  room,
  strip,
  bannerError,
}: {
  detail: ChatDetail;
  me: AuthUser;
  room: ReturnType<typeof useChatRoom>;
  /** The connection strip, drawn under the header. */
  strip: ReactNode;
  /** The red error banner's text: the room's error, unless the strip already tells it. */
  bannerError: string | null;
}) {
  const t = useT();
  const { messages, pending, hasOlder } = room.messages;
  // Where the room opened: the first message unread then keeps its divider while the room stays open.
  const [firstUnreadId] = useState(() => detail.first_unread_id ?? null);
  const [opening, setOpening] = useState(
    () => firstUnreadId !== null && !messages.some((m) => m.id === firstUnreadId),
  );
  const { loadAround } = room;
  useEffect(() => {
    if (opening && firstUnreadId !== null) void loadAround(firstUnreadId).finally(() => setOpening(false));
  }, [opening, firstUnreadId, loadAround]);
  const acts = useMessageActions(detail, me.id, room);
  const slot = composerSlot(detail, me.id);
  const watching = slot === 'join';
  const actions = useWatchingActions(acts.actions, watching);
  useMessageParam(acts.actions.jumpTo, !opening);
  const sender = useMemo(
    () => ({
      id: me.id,
      name: displayNameOf(me),
      username: me.username,
      avatar: me.avatar,
    }),
    [me],
  );
  const rows = useMemo(
    () => withUnreadDivider(buildRows(messages, pending, sender, detail.chat_id), firstUnreadId),
    [messages, pending, sender, detail.chat_id, firstUnreadId],
  );
  const typingNames = room.typingUsers.map((u) => {
    const member = detail.members.find((m) => m.id === u.user_id);
    return { ...u, username: member ? memberNameOf(member) : u.username };
  });
  const typing = typingText(typingNames);
  usePageTitle(detail.display_name || detail.group_name || t('room.title'));
  const frameRef = useRef<HTMLDivElement>(null);
  useFocusOnJoin(frameRef, watching);
  // A room opened with a mouse or trackpad puts the cursor in the composer; on touch screens it would pop the
  // keyboard up over the messages, so there the reader taps the box.
  useEffect(() => {
    if (!window.matchMedia('(pointer: fine)').matches) return;
    const active = document.activeElement;
    if (active && active !== document.body && frameRef.current?.contains(active)) return;
    frameRef.current?.querySelector<HTMLElement>(COMPOSER_BOX_SELECTOR)?.focus({ preventScroll: true });
  }, []);
  const pendingActions = useMemo(
    () => ({ cancel: room.cancel, waiting: room.status !== 'connected' }),
    [room.cancel, room.status],
  );

  return (
    <div ref={frameRef} className={FRAME}>
      <RoomHeader
        chat={detail}
        status={room.status}
        inChatCount={room.inChatCount}
        inChatUserIds={room.inChatUserIds}
      />
      {strip}
      <PinnedBar chatId={detail.chat_id} onJump={acts.actions.jumpTo} />
      <PendingActionsContext.Provider value={pendingActions}>
        <MessageActionsContext.Provider value={actions}>
          {opening ? (
            <LoadingState label={t('room.loadingMessages')} />
          ) : (
            <MessageList
              rows={rows}
              meId={me.id}
              isGroup={!detail.is_private}
              hasOlder={hasOlder}
              loadingOlder={room.loadingOlder}
              onLoadOlder={() => void room.loadOlder()}
              onRetry={room.retry}
              openAtUnread={firstUnreadId !== null}
              target={acts.target}
            />
          )}
        </MessageActionsContext.Provider>
      </PendingActionsContext.Provider>
      <p
        aria-live="polite"
        className="h-6 truncate px-4 text-xs leading-6 text-slate-500 dark:text-slate-400 italic"
        data-testid="typing"
      >
        {typing}
      </p>
      <LatestAnnouncement messages={messages} meId={me.id} />
      <p aria-live="polite" className="sr-only" data-testid="change-note">
        {room.changeNote}
      </p>
      {bannerError && (
        <div
          role="alert"
          className="mx-2 mb-2 flex items-start gap-2 rounded-lg border border-red-200 dark:border-red-900 bg-red-50 dark:bg-red-950/40 px-3 py-2 text-sm text-red-700 dark:text-red-300 sm:mx-3"
        >
          <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <p className="flex-1">{localText(bannerError)}</p>
          <button
            type="button"
            onClick={room.dismissError}
            aria-label={t('room.dismiss')}
            className="rounded p-0.5 text-red-500 dark:text-red-400 hover:bg-red-100 dark:hover:bg-red-900/40"
          >
            <X aria-hidden="true" className="size-4" />
          </button>
        </div>
      )}
      {slot === 'join' ? (
        <JoinBar chatId={detail.chat_id} name={detail.display_name || detail.group_name} />
      ) : slot === 'admins-only' ? (
        <AdminsOnlyNote />
      ) : (
        <Composer
          chatId={detail.chat_id}
          meId={me.id}
          members={detail.members}
          onSend={room.send}
          onInput={room.onInput}
          onAttach={(files, text, replyTo) => void room.sendFiles(files, text, replyTo)}
          onVoice={(voice, replyTo) =>
            void room.sendFiles([voice.file], '', replyTo, {
              duration_ms: voice.durationMs,
              waveform: voice.waveform,
            })
          }
          mode={acts.mode}
          onModeChange={acts.setMode}
          onSaveEdit={acts.saveEdit}
          lastEditable={() => lastEditable(room.messages.messages, me.id)}
          onSendPoll={(poll) => room.send('', undefined, poll)}
          commands={{ chatId: detail.chat_id }}
        />
      )}
      <AttachmentPreview />
      <MessageDialogs chatId={detail.chat_id} acts={acts} />
    </div>
  );
}
