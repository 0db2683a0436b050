import { DELETED_DISPLAY_NAME, DELETED_USERNAME, type Message } from '@parley/protocol';
import { memo, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { cn } from '../../../lib/cn';
import type { PendingMessage } from '../lib/room-messages';
import { AttachmentList } from './attachment-list';
import { MessageTicks } from './message-ticks';
import { PendingUploads } from './pending-uploads';

const timeOf = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });

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

export interface MessageItemProps {
  message: Message;
  pending: PendingMessage | null;
  meId: number;
  isGroup: boolean;
  onRetry: (clientId: string) => void;
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
}: MessageItemProps) {
  if (message.kind === 'system') {
    return (
      <div className="flex justify-center px-4 py-1.5">
        <p className="max-w-[85%] rounded-full bg-slate-200/70 px-3 py-1 text-center text-xs text-slate-600">
          {message.body}
        </p>
      </div>
    );
  }
  const own = message.sender === meId;
  const name = message.sender_name.trim() || DELETED_DISPLAY_NAME;
  const to = senderPath(message, meId);
  return (
    <div
      className={cn('flex items-end gap-2 px-3 py-1 sm:px-4', own && 'flex-row-reverse')}
      data-message-id={message.id || undefined}
    >
      <SenderLink to={to} label={own ? 'Your profile' : `${name}'s profile`} className="shrink-0">
        <Avatar src={message.sender_avatar} name={name} size="sm" tone="muted" lazy />
      </SenderLink>
      <div
        className={cn('flex max-w-[78%] min-w-0 flex-col sm:max-w-[70%]', own ? 'items-end' : 'items-start')}
      >
        {isGroup && !own && (
          <SenderLink
            to={to}
            label={`${name}'s profile`}
            className="mb-0.5 px-1 text-xs font-medium text-slate-600 hover:underline"
          >
            {name}
          </SenderLink>
        )}
        <div
          className={cn(
            'rounded-2xl px-3 py-2 text-sm shadow-sm',
            own
              ? 'rounded-br-md bg-brand-600 text-white'
              : 'rounded-bl-md border border-slate-200 bg-white text-slate-900',
            message.is_error && 'bg-red-600',
          )}
        >
          {message.body && <p className="break-words whitespace-pre-wrap">{message.body}</p>}
          <AttachmentList files={message.files} own={own} />
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
              own ? 'text-white/75' : 'text-slate-400',
            )}
          >
            <time dateTime={message.timestamp}>{timeOf(message.timestamp)}</time>
            {own && (
              <MessageTicks message={message} pending={pending !== null && pending.status !== 'error'} />
            )}
          </div>
        </div>
        {pending?.status === 'error' && (
          <p className="mt-1 flex items-center gap-2 px-1 text-xs text-red-600">
            <span>{pending.error ?? 'Not sent'}</span>
            <button
              type="button"
              onClick={() => onRetry(pending.client_id)}
              className="font-medium underline"
            >
              Retry
            </button>
          </p>
        )}
      </div>
    </div>
  );
});
