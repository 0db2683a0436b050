// Coalesces acknowledgements (read / delivered message ids) so a busy room costs the server one frame per
// window instead of one per message: the first ids after a quiet spell go out at once (leading edge), later
// ones gather and go out together at most once per interval. Pure apart from setTimeout; the caller decides
// what a batch becomes on the wire. A send that fails is not retried: the server recomputes on catch-up.

/** How long acknowledgements gather after one went out. */
export const ACK_INTERVAL_MS = 250;

/** The socket frames allow at most 500 ids each. */
export const ACK_MAX_IDS = 500;

export interface AckBatcherOptions {
  /** Sends one batch (ascending, unique, at most `maxIds` long). */
  send: (ids: number[]) => void;
  intervalMs?: number;
  maxIds?: number;
  /** A window ended with nothing new: the batcher is quiet and holds no timer. */
  onIdle?: () => void;
}

export interface AckBatcher {
  /** Queues ids; sends at once when quiet, else with the next window. */
  add(ids: Iterable<number>): void;
  /** Sends whatever is queued now (the window timing is unchanged). */
  flush(): void;
  /** Sends whatever is queued and stops: later adds are ignored and no timer is left. */
  stop(): void;
  /** Forgets whatever is queued without sending it (the socket is gone). */
  drop(): void;
  readonly pendingCount: number;
}

export function createAckBatcher(options: AckBatcherOptions): AckBatcher {
  const intervalMs = options.intervalMs ?? ACK_INTERVAL_MS;
  const maxIds = options.maxIds ?? ACK_MAX_IDS;
  let pending = new Set<number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;

  const sendPending = (): boolean => {
    if (pending.size === 0) return false;
    const ids = [...pending].sort((a, b) => a - b);
    pending = new Set();
    for (let i = 0; i < ids.length; i += maxIds) options.send(ids.slice(i, i + maxIds));
    return true;
  };

  const openWindow = () => {
    timer = setTimeout(() => {
      timer = null;
      if (sendPending()) openWindow();
      else options.onIdle?.();
    }, intervalMs);
  };

  return {
    add(ids) {
      if (stopped) return;
      for (const id of ids) pending.add(id);
      if (timer !== null || pending.size === 0) return;
      sendPending();
      openWindow();
    },
    flush() {
      if (!stopped) sendPending();
    },
    stop() {
      if (stopped) return;
      sendPending();
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      timer = null;
    },
    drop() {
      pending = new Set();
    },
    get pendingCount() {
      return pending.size;
    },
  };
}

export interface KeyedAckBatcher<K> {
  add(key: K, ids: Iterable<number>): void;
  /** Sends everything queued under every key and stops them all; later adds are ignored. */
  stop(): void;
}

/** One batcher per key (a chat): each key has its own window, and an idle key holds nothing. */
export function createKeyedAckBatcher<K>(
  send: (key: K, ids: number[]) => void,
  options: Omit<AckBatcherOptions, 'send' | 'onIdle'> = {},
): KeyedAckBatcher<K> {
  const batchers = new Map<K, AckBatcher>();
  let stopped = false;
  return {
    add(key, ids) {
      if (stopped) return;
      let batcher = batchers.get(key);
      if (!batcher) {
        batcher = createAckBatcher({
          ...options,
          send: (batch) => send(key, batch),
          onIdle: () => batchers.delete(key),
        });
        batchers.set(key, batcher);
      }
      batcher.add(ids);
    },
    stop() {
      stopped = true;
      for (const batcher of batchers.values()) batcher.stop();
      batchers.clear();
    },
  };
}
