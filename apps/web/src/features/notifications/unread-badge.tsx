import { useUnreadCount } from './notification-store';

/** The unread count from the notification channel, for the Chats link; nothing when zero. */
export function UnreadBadge() {
  const count = useUnreadCount();
  if (count <= 0) return null;
  return (
    <span
      className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1.5 text-[11px] leading-none font-semibold text-white"
      data-testid="unread-badge"
    >
      {count > 99 ? '99+' : count}
      <span className="sr-only"> unread</span>
    </span>
  );
}
