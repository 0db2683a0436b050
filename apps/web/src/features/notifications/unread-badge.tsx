import { useT } from '../../lib/i18n/i18n';
import { useUnreadCount } from './notification-store';

/** The unread count from the notification channel, for the Chats link; nothing when zero. */
export function UnreadBadge() {
  const t = useT();
  const count = useUnreadCount();
  if (count <= 0) return null;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <span
      className="inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-brand-600 px-1.5 text-[11px] leading-none font-semibold text-white"
      data-testid="unread-badge"
    >
      <span aria-hidden="true">{shown}</span>
      <span className="sr-only">{t('general.unread.count', { count: shown })}</span>
    </span>
  );
}
