import { WifiOff } from 'lucide-react';
import { useEffect, useSyncExternalStore } from 'react';
import { useT } from '../lib/i18n/i18n';

const subscribe = (onChange: () => void) => {
  window.addEventListener('online', onChange);
  window.addEventListener('offline', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    window.removeEventListener('offline', onChange);
  };
};

/** Whether the browser says it has a network. */
export const useOnline = () =>
  useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );

/** How many screens on show say the offline state in their own layout (see useOwnOfflineNotice). */
let ownNotices = 0;
const noticeListeners = new Set<() => void>();
const subscribeNotices = (onChange: () => void) => {
  noticeListeners.add(onChange);
  return () => noticeListeners.delete(onChange);
};

/**
 * A screen whose own layout says that it is offline (the chat room, under its header) hides the floating bar
 * while it is on show: floating over the screen's header, the bar hid its title.
 */
export function useOwnOfflineNotice(): void {
  useEffect(() => {
    ownNotices++;
    for (const listener of noticeListeners) listener();
    return () => {
      ownNotices--;
      for (const listener of noticeListeners) listener();
    };
  }, []);
}

/**
 * While the browser is offline, a bar says that messages wait for the connection. It floats under the
 * header without taking space from the screens, and lets clicks through to what is under it.
 */
export function OfflineBar() {
  const t = useT();
  const online = useOnline();
  const shownElsewhere = useSyncExternalStore(
    subscribeNotices,
    () => ownNotices > 0,
    () => false,
  );
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 top-16 z-40 flex justify-center px-3">
      {!online && !shownElsewhere && (
        <p className="flex items-center gap-2 rounded-full bg-slate-900 px-4 py-1.5 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900">
          <WifiOff aria-hidden="true" className="size-4 shrink-0" />
          {t('room.strip.offline')}
        </p>
      )}
    </div>
  );
}
