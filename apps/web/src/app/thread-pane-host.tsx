import { type AuthUser, type ChatDetail, displayNameOf, isAdminRole, type Message } from '@parley/protocol';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { LoadingState } from '../components/ui/spinner';
import { useChat } from '../features/chat-room/api/get-chat';
import { uploadAttachments, uploadErrorText } from '../features/chat-room/api/upload-attachments';
import { Composer } from '../features/chat-room/components/composer';
import { MessageActionsContext } from '../features/chat-room/components/message-actions-context';
import { MessageDialogs } from '../features/chat-room/components/message-dialogs';
import { MessageItem } from '../features/chat-room/components/message-item';
import { PendingActionsContext } from '../features/chat-room/components/pending-actions-context';
import { useMessageActions } from '../features/chat-room/hooks/use-message-actions';
import { guessFileType } from '../features/chat-room/lib/attachment-files';
import { lastEditable } from '../features/chat-room/lib/message-changes';
import { pendingAsMessage } from '../features/chat-room/lib/message-rows';
import type { RoomAction } from '../features/chat-room/lib/room-messages';
import { ThreadPane } from '../features/threads/components/thread-pane';
import { type ThreadUploader, useThread } from '../features/threads/hooks/use-thread';
import type { ThreadPending } from '../features/threads/lib/thread-state';
import { useT } from '../lib/i18n/i18n';
import { useAuth } from '../lib/session/auth-store';
import { cn } from '../lib/ui/cn';

// The thread pane with the room's own pieces: its messages drawn by the room's MessageItem with the room's
// menu (edit, delete, react, quote), its composer the room's Composer (a draft of its own), files uploaded as
// the room uploads them. The thread's state and frames are the threads feature's.

/** How long a message jumped to (a quote clicked) stays marked. */
const HIGHLIGHT_MS = 1600;

export interface ThreadPaneHostProps {
  chatId: string;
  rootId: number;
  onClose: () => void;
  className?: string;
}

export function ThreadPaneHost({ chatId, rootId, onClose, className }: ThreadPaneHostProps) {
  const t = useT();
  const me = useAuth((s) => s.user);
  const chat = useChat(chatId);
  if (!me || !chat.data) {
    return (
      <aside
        aria-label={t('general.thread.label')}
        className={cn('flex flex-col bg-slate-50 dark:bg-slate-950', className)}
      >
        <LoadingState label={t('general.thread.loading')} />
      </aside>
    );
  }
  return (
    <OpenThread
      key={`${chatId}:${rootId}`}
      detail={chat.data}
      me={me}
      rootId={rootId}
      onClose={onClose}
      className={className}
    />
  );
}

function OpenThread({
  detail,
  me,
  rootId,
  onClose,
  className,
}: {
  detail: ChatDetail;
  me: AuthUser;
  rootId: number;
  onClose: () => void;
  className?: string;
}) {
  const t = useT();
  const chatId = detail.chat_id;
  const uploader = useMemo<ThreadUploader>(
    () => ({
      upload: async (files, onProgress) =>
        (await uploadAttachments(chatId, files, { onProgress })).map((f) => f.id),
      describe: (file) => ({ name: file.name, size: file.size, type: guessFileType(file) }),
      errorText: uploadErrorText,
    }),
    [chatId],
  );
  const thread = useThread(chatId, rootId, me.id, uploader);
  const stateRef = useRef(thread.state);
  stateRef.current = thread.state;
  const { dispatch } = thread;
  // The menu's outcomes (an edit saved, a deletion, a reaction, a vote) apply to the thread as the room's to the room.
  const list = useMemo(
    () => ({
      dispatch: (action: RoomAction) => {
        if (
          action.type === 'updated' ||
          action.type === 'deleted' ||
          action.type === 'reactions' ||
          action.type === 'poll'
        )
          dispatch(action);
      },
      loadAround: async (id: number) =>
        stateRef.current.root?.id === id || stateRef.current.replies.some((m) => m.id === id),
    }),
    [dispatch],
  );
  const acts = useMessageActions(detail, me.id, list);
  // Inside its pane a thread opens no thread.
  const actions = useMemo(() => ({ ...acts.actions, openThread: undefined }), [acts.actions]);
  const highlighted = useJumpTarget(acts.target?.id ?? null, acts.target?.seq ?? 0);
  const pendingActions = useMemo(
    () => ({ cancel: thread.cancel, waiting: thread.status !== 'connected' }),
    [thread.cancel, thread.status],
  );
  const sender = useMemo(
    () => ({ id: me.id, name: displayNameOf(me), username: me.username, avatar: me.avatar }),
    [me],
  );
  const isGroup = !detail.is_private;
  const renderMessage = useCallback(
    (message: Message) => (
      <MessageItem
        message={message}
        pending={null}
        meId={me.id}
        isGroup={isGroup}
        onRetry={thread.retry}
        highlighted={highlighted === message.id}
      />
    ),
    [me.id, isGroup, thread.retry, highlighted],
  );
  const renderPending = (pending: ThreadPending) => (
    <MessageItem
      message={pendingAsMessage(pending, sender, chatId)}
      pending={pending}
      meId={me.id}
      isGroup={isGroup}
      onRetry={thread.retry}
    />
  );
  const member = detail.is_member !== false;
  // In an announcement channel anyone replies in a thread, but only the admins post to the chat.
  const canAlsoSend =
    detail.posting !== 'admins' || isAdminRole(detail.members.find((m) => m.id === me.id)?.role);

  return (
    <PendingActionsContext.Provider value={pendingActions}>
      <MessageActionsContext.Provider value={actions}>
        <ThreadPane
          thread={thread}
          chatName={detail.display_name || detail.group_name}
          renderMessage={renderMessage}
          renderPending={renderPending}
          onClose={onClose}
          className={className}
          canAlsoSend={canAlsoSend}
          composer={
            member ? (
              <Composer
                chatId={`${chatId}:thread:${rootId}`}
                meId={me.id}
                members={detail.members}
                onSend={thread.send}
                onInput={() => undefined}
                onAttach={thread.sendFiles}
                mode={acts.mode}
                onModeChange={acts.setMode}
                onSaveEdit={acts.saveEdit}
                lastEditable={() => lastEditable(thread.state.replies, me.id)}
                commands={{ chatId, threadRoot: rootId }}
              />
            ) : null
          }
          replyNote={
            <p className="border-t border-slate-200 bg-white px-4 py-3 text-sm text-slate-600 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-400">
              {t('general.thread.joinToPost')}
            </p>
          }
        />
      </MessageActionsContext.Provider>
      <MessageDialogs chatId={chatId} acts={acts} />
    </PendingActionsContext.Provider>
  );
}

/** The message a quote click jumped to: scrolled into the pane's view and marked for a moment. */
function useJumpTarget(id: number | null, seq: number): number | null {
  const [marked, setMarked] = useState<number | null>(null);
  useEffect(() => {
    if (id === null) return;
    document
      .querySelector(`[data-testid="thread-pane"] [data-message-id="${id}"]`)
      ?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    setMarked(id);
    const timer = setTimeout(() => setMarked(null), HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [id, seq]);
  return marked;
}
