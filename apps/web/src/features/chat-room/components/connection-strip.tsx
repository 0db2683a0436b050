import { SOCKET_CLIENT_TEXT } from '@parley/protocol';
import { CloudOff, RefreshCw, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { buttonClasses } from '../../../components/ui/button';
import { useT } from '../../../lib/i18n/i18n';
import type { SocketStatus } from '../../../lib/realtime/chat-socket';
import { cn } from '../../../lib/ui/cn';

// The room's connection, said in its own layout under the header (never floating over it): offline, or
// reconnecting with the time of the next attempt and a way to try at once, and whether what shows is the copy
// saved on this device. The header's connection indicator is the live region that announces each change; this
// strip is not one, so its countdown is not read out every second. While the strip is shown it is the one place
// the connection is told: it says SPEC's 'Connection error', in red, and the room's red error banner (which SPEC
// clears on reconnect) leaves that text out (roomBannerError), so an outage is not said twice.

export interface ConnectionStripProps {
  status: SocketStatus;
  /** When the next attempt is due (epoch ms) while one waits. */
  retryAt: number | null;
  /** Whether the browser says it has a network. */
  online: boolean;
  /** The room shows the copy saved on this device, not one loaded on this entry. */
  storedCopy: boolean;
  /** Tries at once; without it there is no button (the screen has its own). */
  onTryNow?: () => void;
}

const STRIP =
  'flex min-h-10 shrink-0 flex-wrap items-center gap-x-3 gap-y-1 border-b px-3 py-1.5 text-sm sm:px-4';
const CALM =
  'border-slate-200 bg-slate-100 text-slate-800 dark:border-slate-800 dark:bg-slate-900 dark:text-slate-200';
const WARN =
  'border-amber-200 bg-amber-50 text-amber-950 dark:border-amber-900/60 dark:bg-amber-950/40 dark:text-amber-100';

const ERROR =
  'border-red-200 bg-red-50 text-red-700 dark:border-red-900 dark:bg-red-950/40 dark:text-red-300';

/** Whether the strip shows for this state: offline, or not connected yet (reconnecting, or the saved copy). */
const stripShown = (status: SocketStatus, online: boolean, storedCopy: boolean) =>
  !online || status === 'reconnecting' || (status !== 'connected' && storedCopy);

/**
 * What the room's red error banner says: its error, except SPEC's 'Connection error' while the connection strip
 * already tells the connection's state (offline, or trying again), so the outage is said once.
 */
export function roomBannerError(
  error: string | null,
  { status, online, storedCopy }: Pick<ConnectionStripProps, 'status' | 'online' | 'storedCopy'>,
): string | null {
  if (error === SOCKET_CLIENT_TEXT.connectionError && stripShown(status, online, storedCopy)) return null;
  return error;
}

/** Whole seconds left until `at` (at least 1), kept current; null without `at`. */
function useSecondsUntil(at: number | null): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [at]);
  return at === null ? null : Math.max(1, Math.ceil((at - now) / 1000));
}

export function ConnectionStrip({ status, retryAt, online, storedCopy, onTryNow }: ConnectionStripProps) {
  const t = useT();
  const seconds = useSecondsUntil(online && status === 'reconnecting' ? retryAt : null);
  if (!online) {
    return (
      <p role="status" className={cn(STRIP, CALM)} data-testid="connection-strip" data-connection="offline">
        <WifiOff aria-hidden="true" className="size-4 shrink-0" />
        <span className="min-w-0 flex-1">
          {t('room.strip.offline')}
          {storedCopy && ` ${t('room.strip.savedCopy')}`}
        </span>
      </p>
    );
  }
  if (!stripShown(status, online, storedCopy)) return null;
  const attempt =
    status === 'reconnecting'
      ? seconds !== null
        ? t('room.strip.reconnectingIn', { seconds })
        : t('room.strip.reconnecting')
      : status === 'connecting'
        ? t('room.strip.connecting')
        : '';
  return (
    <div
      className={cn(STRIP, storedCopy ? WARN : ERROR)}
      data-testid="connection-strip"
      data-connection={status}
    >
      <CloudOff aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0 flex-1">
        {storedCopy ? t('room.strip.savedCopy') : t('room.strip.connectionError')} {attempt}
      </span>
      {onTryNow && status === 'reconnecting' && (
        <button
          type="button"
          onClick={onTryNow}
          disabled={seconds === null}
          className={buttonClasses('secondary', 'sm')}
        >
          <RefreshCw aria-hidden="true" className={cn('size-4', seconds === null && 'animate-spin')} />
          {t('room.strip.tryNow')}
        </button>
      )}
    </div>
  );
}
