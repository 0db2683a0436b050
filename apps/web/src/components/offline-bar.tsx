import { OFFLINE_TEXT } from '@parley/protocol';
import { WifiOff } from 'lucide-react';
import { useSyncExternalStore } from 'react';

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

/**
 * While the browser is offline, a bar says that messages wait for the connection. It floats under the
 * header without taking space from the screens, and lets clicks through to what is under it.
 */
export function OfflineBar() {
  const online = useOnline();
  return (
    <div role="status" className="pointer-events-none fixed inset-x-0 top-16 z-40 flex justify-center px-3">
      {!online && (
        <p className="flex items-center gap-2 rounded-full bg-slate-900 px-4 py-1.5 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900">
          <WifiOff aria-hidden="true" className="size-4 shrink-0" />
          {OFFLINE_TEXT.bar}
        </p>
      )}
    </div>
  );
}
