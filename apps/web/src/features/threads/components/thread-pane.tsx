import type { Message } from '@parley/protocol';
import { Bell, Check, ChevronDown, MessageCircleOff, RefreshCw, TriangleAlert, X } from 'lucide-react';
import { type KeyboardEvent, type ReactNode, useEffect, useId, useLayoutEffect, useRef } from 'react';
import { LatestAnnouncement } from '../../../components/latest-announcement';
import { Button } from '../../../components/ui/button';
import { Checkbox } from '../../../components/ui/checkbox';
import { LoadingState } from '../../../components/ui/spinner';
import { isApiError } from '../../../lib/http/api-error';
import { useT } from '../../../lib/i18n/i18n';
import { cn } from '../../../lib/ui/cn';
import type { OpenThread } from '../hooks/use-thread';
import { type ThreadPending, threadParts } from '../lib/thread-state';

// An open thread: its own header (Thread, the chat's name, Follow, close), the root, the replies page after
// page, and its own composer with 'Also send to chat'. It is a labelled region (complementary) that takes the
// focus when it opens; Escape closes it. Where it stands (beside the room, over it) is the layout's.

export interface ThreadPaneProps {
  thread: OpenThread;
  /** The chat as the reader's chat list names it. */
  chatName: string;
  /** Draws a message (the root, a reply) as the room draws it. */
  renderMessage: (message: Message) => ReactNode;
  /** Draws a reply of the reader's on its way. */
  renderPending: (pending: ThreadPending) => ReactNode;
  /** The composer; null for a reader who may not reply (then `replyNote` says why). */
  composer: ReactNode | null;
  /** Whether the reader may send a reply to the chat too (not a member in an announcement channel). */
  canAlsoSend: boolean;
  replyNote?: ReactNode;
  onClose: () => void;
  className?: string;
}

export function ThreadPane({
  thread,
  chatName,
  renderMessage,
  renderPending,
  composer,
  canAlsoSend,
  replyNote,
  onClose,
  className,
}: ThreadPaneProps) {
  const t = useT();
  const headingId = useId();
  const paneRef = useRef<HTMLElement>(null);
  const { state } = thread;

  // Opening moves the focus into the pane, onto its heading; once the thread is there, with a mouse or trackpad
  // on to its composer (on a touch screen that would pop the keyboard up over the replies).
  useEffect(() => {
    paneRef.current?.querySelector<HTMLElement>('h2')?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const pane = paneRef.current;
    if (!state.loaded || !pane || !window.matchMedia('(pointer: fine)').matches) return;
    const active = document.activeElement;
    if (active && active !== document.body && active !== pane.querySelector('h2')) return;
    pane.querySelector<HTMLElement>('textarea')?.focus({ preventScroll: true });
  }, [state.loaded]);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    // What handles Escape itself (a reply or edit mode, a menu, a suggestion list) keeps it.
    if (event.key !== 'Escape' || event.defaultPrevented) return;
    event.preventDefault();
    onClose();
  };

  return (
    <aside
      ref={paneRef}
      aria-labelledby={headingId}
      onKeyDown={onKeyDown}
      data-testid="thread-pane"
      className={cn('flex min-h-0 flex-col bg-slate-50 dark:bg-slate-950', className)}
    >
      <header className="flex items-center gap-2 border-b border-slate-200 bg-white px-3 py-2 dark:border-slate-800 dark:bg-slate-900">
        <div className="min-w-0 flex-1">
          <h2
            id={headingId}
            tabIndex={-1}
            className="font-semibold text-slate-900 outline-none dark:text-slate-100"
          >
            {t('browse.thread.title')}
          </h2>
          <p translate="no" className="truncate text-xs text-slate-600 dark:text-slate-400">
            {chatName}
          </p>
        </div>
        {state.loaded && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void thread.toggleFollowing()}
            title={state.following ? t('browse.thread.unfollowHint') : t('browse.thread.followHint')}
          >
            {state.following ? (
              <Check aria-hidden="true" className="size-4" />
            ) : (
              <Bell aria-hidden="true" className="size-4" />
            )}
            {state.following ? t('browse.thread.following') : t('browse.thread.follow')}
          </Button>
        )}
        <button
          type="button"
          onClick={onClose}
          aria-label={t('browse.thread.close')}
          title={t('browse.thread.closeTitle')}
          className="inline-flex size-9 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-white"
        >
          <X aria-hidden="true" className="size-5" />
        </button>
      </header>
      <ThreadBody
        thread={thread}
        renderMessage={renderMessage}
        renderPending={renderPending}
        onClose={onClose}
      />
      {state.loaded &&
        (composer ? (
          <div className="border-t border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
            {composer}
            {canAlsoSend && (
              <Checkbox
                label={t('browse.thread.alsoSend')}
                checked={thread.alsoInChat}
                onChange={(event) => thread.setAlsoInChat(event.target.checked)}
                className="px-3 pb-2"
              />
            )}
          </div>
        ) : (
          replyNote
        ))}
    </aside>
  );
}

function ThreadBody({
  thread,
  renderMessage,
  renderPending,
  onClose,
}: Pick<ThreadPaneProps, 'thread' | 'renderMessage' | 'renderPending' | 'onClose'>) {
  const t = useT();
  const { state, loadError } = thread;
  const scroller = useRef<HTMLDivElement>(null);
  /** Whether the view rests at its end: new replies then keep it there. */
  const atEnd = useRef(true);
  const { loaded, later } = threadParts(state);
  const count = state.root?.thread?.reply_count ?? state.replies.length;

  useLayoutEffect(() => {
    const view = scroller.current;
    if (view && atEnd.current) view.scrollTop = view.scrollHeight;
  });

  if (!state.loaded || !state.root) {
    if (!loadError) return <LoadingState label={t('browse.thread.loading')} />;
    const gone = isApiError(loadError) && (loadError.status === 404 || loadError.status === 403);
    const alert = (
      <div role="alert" className="m-auto flex max-w-xs flex-col items-center px-4 py-12 text-center">
        {gone ? (
          <MessageCircleOff aria-hidden="true" className="mb-3 size-8 text-slate-400" />
        ) : (
          <TriangleAlert aria-hidden="true" className="mb-3 size-8 text-amber-500" />
        )}
        <p className="font-medium text-slate-900 dark:text-slate-100">
          {gone ? t('browse.thread.gone') : t('browse.thread.loadFailed')}
        </p>
        <Button variant="secondary" className="mt-4" onClick={gone ? onClose : thread.reload}>
          {!gone && <RefreshCw aria-hidden="true" className="size-4" />}
          {gone ? t('room.edits.close') : t('profile.tryAgain')}
        </Button>
      </div>
    );
    // Opened without a network (a reload offline), the replies waiting in the outbox still show, to cancel.
    if (state.pending.length === 0) return alert;
    return (
      <div className="flex min-h-0 flex-1 flex-col overflow-y-auto py-2" data-testid="thread-messages">
        {alert}
        <section aria-label={t('browse.thread.replies')}>
          <PendingReplies pending={state.pending} renderPending={renderPending} />
        </section>
      </div>
    );
  }

  return (
    <div
      ref={scroller}
      onScroll={(event) => {
        const view = event.currentTarget;
        atEnd.current = view.scrollHeight - view.scrollTop - view.clientHeight < 24;
      }}
      className="min-h-0 flex-1 overflow-y-auto overscroll-contain py-2"
      data-testid="thread-messages"
    >
      {renderMessage(state.root)}
      <div className="flex items-center gap-3 px-4 py-2 text-xs font-medium text-slate-600 dark:text-slate-400">
        <span data-testid="thread-reply-count">
          {count === 0 ? t('browse.thread.noReplies') : t('thread.replies', { count })}
        </span>
        <span aria-hidden="true" className="h-px flex-1 bg-slate-200 dark:bg-slate-800" />
      </div>
      <section aria-label={t('browse.thread.replies')}>
        {loaded.map((m) => (
          <div key={m.client_id ? `c-${m.client_id}` : `m-${m.id}`}>{renderMessage(m)}</div>
        ))}
        {state.nextCursor !== null && (
          <div className="flex justify-center py-2">
            <Button
              variant="secondary"
              size="sm"
              loading={thread.loadingNewer}
              onClick={() => void thread.loadNewer()}
            >
              {!thread.loadingNewer && <ChevronDown aria-hidden="true" className="size-4" />}
              {t('browse.thread.showNewer')}
            </Button>
          </div>
        )}
        {later.map((m) => (
          <div key={m.client_id ? `c-${m.client_id}` : `m-${m.id}`}>{renderMessage(m)}</div>
        ))}
        <PendingReplies pending={state.pending} renderPending={renderPending} />
      </section>
      <LatestAnnouncement messages={state.replies} meId={thread.meId} />
    </div>
  );
}

function PendingReplies({
  pending,
  renderPending,
}: {
  pending: ThreadPending[];
  renderPending: ThreadPaneProps['renderPending'];
}) {
  return pending.map((p) => <div key={`c-${p.client_id}`}>{renderPending(p)}</div>);
}
