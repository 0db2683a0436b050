import { DELETED_USERNAME, type Message } from '@parley/protocol';
import { Forward } from 'lucide-react';
import { memo, type ReactNode, Suspense, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { SoftwareBadge } from '../../../components/software-badge';
import { useT } from '../../../lib/i18n/i18n';
import { localText } from '../../../lib/i18n/server-texts';
import { useIsBlocked } from '../../../lib/queries/safety';
import { timeOf } from '../../../lib/text/time-format';
import { cn } from '../../../lib/ui/cn';
import { lazyRetry } from '../../../lib/ui/retry-import';
import type { PendingMessage } from '../lib/room-messages';
import { AttachmentList } from './attachment-list';
import { LinkPreviewCard } from './link-preview-card';
import { useMessageActionsContext } from './message-actions-context';
import { MessageMenu } from './message-menu';
import { BlockedFold, EditedMark, MessageBody, ReactionChips, ReplyQuoteView } from './message-parts';
import { MessageTicks } from './message-ticks';
import { usePendingActions } from './pending-actions-context';
import { PendingUploads } from './pending-uploads';
import { SystemLine } from './system-line';
import { InThreadNote, ThreadSummary } from './thread-summary';

/** A poll's card, loaded with the first poll a room shows. */
const PollCard = lazyRetry(() => import('./poll-card'));

/** /profile for oneself, /user/{username} for others, nothing for a deleted account or a system line. */
export function senderPath(message: Message, meId: number): string | null {
  if (message.sender === null || !message.sender_username || message.sender_username === DELETED_USERNAME)
    return null;
  return message.sender === meId ? '/profile' : `/user/${encodeURIComponent(message.sender_username)}`;
}

function SenderLink({
  to,
  label,
  children,
  className,
}: {
  to: string | null;
  label: string;
  children: ReactNode;
  className?: string;
}) {
  if (!to) return <span className={className}>{children}</span>;
  return (
    <Link to={to} aria-label={label} className={cn('rounded-full', className)}>
      {children}
    </Link>
  );
}

/**
 * 'App' beside the name of what an incoming webhook posted, 'Bot' beside a bot's: people see that software wrote
 * it. A webhook's message names no person, so its name shows in a private chat too.
 */
export const softwareBadge = (message: Message): 'App' | 'Bot' | null =>
  message.sender_is_app ? 'App' : message.sender_is_bot ? 'Bot' : null;

function SenderBadge({ message }: { message: Message }) {
  const label = softwareBadge(message);
  return label ? <SoftwareBadge label={label} /> : null;
}

export interface MessageItemProps {
  message: Message;
  pending: PendingMessage | null;
  meId: number;
  isGroup: boolean;
  onRetry: (clientId: string) => void;
  /** Briefly marked after a jump to it (a quote clicked). */
  highlighted?: boolean;
}

/** How long a touch must rest on a message to open its menu. */
const LONG_PRESS_MS = 500;

/** The receipts a message carries: on someone else's message they show nowhere (the ticks are one's own). */
const RECEIPTS = new Set<string>(['is_sent', 'is_delivered', 'is_read']);

/**
 * Whether a message's rendering stays the same: the same props, or someone else's message whose receipts
 * alone changed (opening a room marks its messages read, and every one of them would draw again for nothing).
 */
export function sameItem(a: MessageItemProps, b: MessageItemProps): boolean {
  if (
    a.pending !== b.pending ||
    a.meId !== b.meId ||
    a.isGroup !== b.isGroup ||
    a.onRetry !== b.onRetry ||
    a.highlighted !== b.highlighted
  )
    return false;
  if (a.message === b.message) return true;
  if (a.message.sender === a.meId || b.message.sender === b.meId) return false;
  const x = a.message as unknown as Record<string, unknown>;
  const y = b.message as unknown as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  return keys.every((k) => RECEIPTS.has(k) || x[k] === y[k]);
}

/**
 * One message: system lines centred; others with avatar, (in groups) name, body, time and own ticks. Memoized:
 * scrolling re-renders the list's window, and a message that did not change need not render again.
 */
export const MessageItem = memo(function MessageItem({
  message,
  pending,
  meId,
  isGroup,
  onRetry,
  highlighted = false,
}: MessageItemProps) {
  const t = useT();
  const actions = useMessageActionsContext();
  const [menuOpen, setMenuOpen] = useState(false);
  const press = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pressed = useRef(false);
  // Someone the reader blocked: their messages in a shared group are folded until asked for.
  const blocked = useIsBlocked({ id: message.sender !== meId ? message.sender : null });
  // A reply quoting someone the reader blocked: the quote is folded the same way.
  const quotedId = message.reply_to?.sender_id;
  const quoteBlocked = useIsBlocked({ id: quotedId !== meId ? quotedId : null });
  const [unfolded, setUnfolded] = useState(false);
  if (blocked && !unfolded && message.kind !== 'system') {
    return (
      <div className="flex px-3 py-1 sm:px-4" data-message-id={message.id || undefined} data-blocked="true">
        <BlockedFold
          onShow={() => setUnfolded(true)}
          className="rounded-2xl border border-dashed border-slate-300 dark:border-slate-700 px-3 py-1.5 text-slate-600 dark:text-slate-400"
        />
      </div>
    );
  }
  if (message.kind === 'system') {
    return (
      <div className="flex justify-center px-4 py-1.5">
        <p className="max-w-[85%] rounded-full bg-slate-200/70 px-3 py-1 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300">
          <SystemLine body={message.body} />
        </p>
      </div>
    );
  }
  const own = message.sender === meId;
  // A deleted account is named by Parley, in the reader's language; anyone else by their own name.
  const gone = !message.sender_name.trim() || message.sender_username === DELETED_USERNAME;
  const name = gone ? t('browse.room.deletedUser') : message.sender_name.trim();
  const to = senderPath(message, meId);
  // Confirmed messages only: a pending one has no id to act on yet; a deleted one has nothing left to act on.
  const actionable = actions !== null && message.id > 0 && !pending && !message.is_deleted;
  const endPress = () => {
    if (press.current) clearTimeout(press.current);
    press.current = null;
  };
  const touch = actionable
    ? {
        onTouchStart: () => {
          endPress();
          pressed.current = false;
          press.current = setTimeout(() => {
            pressed.current = true;
            setMenuOpen(true);
          }, LONG_PRESS_MS);
        },
        onTouchEnd: endPress,
        onTouchMove: endPress,
        onTouchCancel: endPress,
        // The browser's own long-press menu would cover ours.
        onContextMenu: (event: { preventDefault: () => void }) => {
          if (press.current || pressed.current) event.preventDefault();
        },
      }
    : {};
  return (
    <div
      className={cn(
        'group flex items-end gap-2 px-3 py-1 transition-colors duration-700 sm:px-4',
        own && 'flex-row-reverse',
        highlighted && 'bg-amber-100 dark:bg-amber-400/15',
      )}
      data-message-id={message.id || undefined}
      data-client-id={pending?.client_id}
      data-highlighted={highlighted || undefined}
      tabIndex={-1}
    >
      <SenderLink
        to={to}
        label={own ? t('room.msg.yourProfile') : t('room.msg.profileOf', { name })}
        className="shrink-0"
      >
        <Avatar src={message.sender_avatar} name={name} size="sm" tone="muted" lazy />
      </SenderLink>
      <div
        className={cn('flex max-w-[78%] min-w-0 flex-col sm:max-w-[70%]', own ? 'items-end' : 'items-start')}
      >
        {((isGroup && !own) || message.sender_is_app) && (
          <span className="mb-0.5 flex items-center gap-1 px-1">
            <SenderLink
              to={to}
              label={t('room.msg.profileOf', { name })}
              className="text-xs font-medium text-slate-600 dark:text-slate-400 hover:underline"
            >
              <span translate={gone ? undefined : 'no'}>{name}</span>
            </SenderLink>
            <SenderBadge message={message} />
          </span>
        )}
        <div className={cn('flex max-w-full min-w-0 items-center gap-1', own && 'flex-row-reverse')}>
          <div
            {...touch}
            className={cn(
              'min-w-0 rounded-2xl px-3 py-2 text-sm shadow-sm',
              own
                ? 'rounded-ee-md bg-brand-600 text-white'
                : 'rounded-es-md border border-slate-200 dark:border-slate-800 bg-white dark:bg-slate-900 text-slate-900 dark:text-slate-100',
              message.is_error && 'bg-red-600',
            )}
          >
            {message.forwarded && !message.is_deleted && (
              <p
                data-testid="forwarded"
                className={cn(
                  'mb-1 flex items-center gap-1 text-xs italic',
                  own ? 'text-white/90' : 'text-slate-500 dark:text-slate-400',
                )}
              >
                <Forward aria-hidden="true" className="size-3.5" />
                {t('room.msg.forwarded')}
              </p>
            )}
            {message.reply_to && !message.is_deleted && (
              <ReplyQuoteView
                quote={message.reply_to}
                own={own}
                blocked={quoteBlocked}
                onClick={actions && message.id > 0 ? () => actions.jumpTo(message.reply_to!.id) : undefined}
              />
            )}
            <MessageBody message={message} actions={actions} own={own} />
            {message.poll && !message.is_deleted && (
              <Suspense
                fallback={
                  <p translate="no" className="my-1 font-semibold">
                    {message.poll.question}
                  </p>
                }
              >
                <PollCard
                  message={message}
                  poll={message.poll}
                  own={own}
                  actions={pending ? null : actions}
                />
              </Suspense>
            )}
            {message.link_preview && !message.is_deleted && (
              <LinkPreviewCard
                preview={message.link_preview}
                own={own}
                remove={actionable && own ? { chatId: message.chatroom, messageId: message.id } : undefined}
              />
            )}
            <AttachmentList
              files={message.files}
              own={own}
              audio={{ message, meId, privateChat: !isGroup }}
            />
            {pending?.uploads && (
              <PendingUploads
                uploads={pending.uploads}
                progress={pending.progress ?? 0}
                uploading={pending.status === 'uploading'}
              />
            )}
            <div
              className={cn(
                'mt-1 flex items-center justify-end gap-1 text-[11px]',
                own ? 'text-white/90' : 'text-slate-500 dark:text-slate-400',
              )}
            >
              <EditedMark message={message} onOpen={actions ? () => actions.showEdits(message) : undefined} />
              <time dateTime={message.timestamp}>{timeOf(message.timestamp)}</time>
              {own && (
                <MessageTicks message={message} pending={pending !== null && pending.status !== 'error'} />
              )}
            </div>
          </div>
          {actionable && (
            <MessageMenu message={message} actions={actions} open={menuOpen} onOpenChange={setMenuOpen} />
          )}
        </div>
        <ReactionChips message={message} actions={actions} />
        <ThreadLinks message={message} actions={actions} />
        {pending?.status === 'error' && (
          <p className="mt-1 flex items-center gap-2 px-1 text-xs text-red-600 dark:text-red-400">
            <span>{pending.error ? localText(pending.error) : t('room.msg.notSent')}</span>
            <button
              type="button"
              onClick={() => onRetry(pending.client_id)}
              className="font-medium underline"
            >
              {t('room.msg.retry')}
            </button>
            <CancelPending clientId={pending.client_id} />
          </p>
        )}
        {pending && pending.status !== 'error' && <WaitingPending pending={pending} />}
      </div>
    </div>
  );
}, sameItem);

/**
 * Where a message meets a thread: under a root, its summary ('2 replies'); under a reply also sent to the chat,
 * a way to its thread. Nothing where a thread cannot be opened (inside its own pane).
 */
function ThreadLinks({
  message,
  actions,
}: {
  message: Message;
  actions: ReturnType<typeof useMessageActionsContext>;
}) {
  const openThread = actions?.openThread;
  if (!actions || !openThread) return null;
  if (message.thread_root != null)
    return <InThreadNote rootId={message.thread_root} openThread={openThread} />;
  if (!message.thread?.reply_count) return null;
  return <ThreadSummary rootId={message.id} thread={message.thread} actions={{ ...actions, openThread }} />;
}

/** A pending message's Cancel: it leaves the screen and the outbox before it is stored. */
function CancelPending({ clientId }: { clientId: string }) {
  const t = useT();
  const actions = usePendingActions();
  if (!actions) return null;
  return (
    <button
      type="button"
      onClick={() => actions.cancel(clientId)}
      aria-label={t('room.msg.cancelLabel')}
      className="font-medium underline"
    >
      {t('room.msg.cancel')}
    </button>
  );
}

/** Under a message waiting in the outbox (the room offline) or for its files: what it waits for, and Cancel. */
function WaitingPending({ pending }: { pending: PendingMessage }) {
  const t = useT();
  const actions = usePendingActions();
  if (!actions || (!actions.waiting && pending.status !== 'uploading')) return null;
  return (
    <p className="mt-1 flex items-center justify-end gap-2 px-1 text-xs text-slate-600 dark:text-slate-300">
      {actions.waiting && <span>{t('room.msg.waiting')}</span>}
      <CancelPending clientId={pending.client_id} />
    </p>
  );
}
