import { Suspense } from 'react';
import { useAuth } from '../../lib/session/auth-store';
import { useAfterFirstScreen } from '../../lib/ui/first-screen';
import { lazyRetry } from '../../lib/ui/retry-import';

const NotificationSocket = lazyRetry(async () => ({
  default: (await import('./notification-socket')).NotificationSocket,
}));

/**
 * The global notification listener (SPEC §2): runs for signed-in users, on /ws/notifications/ with the same
 * reconnect rules as the chat room. Counts feed the Chats badge; each new message refreshes the chat list and,
 * for a chat not on screen, shows a browser notification.
 */
export function NotificationListener() {
  const userId = useAuth((s) => (s.isAuthenticated ? (s.user?.id ?? null) : null));
  // Its code, settings and ticket come after the first screen's own (lib/ui/first-screen.ts).
  const ready = useAfterFirstScreen();
  if (userId === null || !ready) return null;
  return (
    <Suspense fallback={null}>
      <NotificationSocket key={userId} />
    </Suspense>
  );
}
