// The one rule for everything that tries again by itself while the server is away: the sockets
// (chat-socket.ts, never giving up) and code loaded on demand (lib/ui/retry-import.ts). Capped exponential
// back-off with "equal jitter": the wait after n failures in a row is drawn between half and all of
// min(max, base × 2^n), so a crowd sent away by one restart comes back spread out, a short drop is retried within
// a second and a long outage every 15–30 s, for as long as it lasts. A moment when trying is likely to work (the
// network back, the tab shown, a person pressing Try now) skips the wait.

export interface BackoffOptions {
  /** The ceiling of the first wait (ms). */
  baseMs?: number;
  /** No wait is longer than this (ms). */
  maxMs?: number;
  /** A number in [0, 1) drawn for each wait's jitter: Math.random; tests fix it. */
  random?: () => number;
}

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/** The wait after `failures` failures in a row (0 for the first). */
export function backoffDelay(
  failures: number,
  { baseMs = BACKOFF_BASE_MS, maxMs = BACKOFF_MAX_MS, random = Math.random }: BackoffOptions = {},
): number {
  // The exponent is bounded so that a long outage's count never overflows into Infinity.
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(failures, 30));
  return Math.floor(ceiling / 2 + (ceiling / 2) * random());
}

/** One thing tried again after each failure, each wait longer than the last up to the cap, until a success. */
export class Backoff {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting: (() => void) | null = null;
  private due: number | null = null;
  private count = 0;

  constructor(private readonly options: BackoffOptions = {}) {}

  /** Failures in a row since the last success. */
  get failures(): number {
    return this.count;
  }

  /** When the waiting run is due (epoch ms), or null when nothing waits. */
  get dueAt(): number | null {
    return this.due;
  }

  /**
   * A failure: `run` is called after the next wait, or after `waitMs` when the caller knows better (a server
   * that said it restarts). Replaces a run still waiting. Returns when it is due.
   */
  schedule(run: () => void, waitMs: number = backoffDelay(this.count, this.options)): number {
    this.cancel();
    this.count++;
    this.waiting = run;
    this.due = Date.now() + waitMs;
    this.timer = setTimeout(() => this.fire(), waitMs);
    return this.due;
  }

  /** Runs what waits at once; false when nothing waited. The count stays: a failure waits the next step. */
  now(): boolean {
    if (!this.waiting) return false;
    this.fire();
    return true;
  }

  /** Drops what waits; the count stays. */
  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
    this.due = null;
  }

  /** A success (or a fresh start): drops what waits, and the next failure waits the shortest time again. */
  reset(): void {
    this.cancel();
    this.count = 0;
  }

  private fire(): void {
    const run = this.waiting;
    this.cancel();
    run?.();
  }
}

/**
 * Calls `run` whenever trying again now is likely to work: the browser says it is online again, or the page
 * comes back into view (a phone's browser freezes a hidden tab's timers, and a laptop wakes from sleep with
 * every wait long overdue). Returns the unsubscribe.
 */
export function onRetryChance(run: () => void): () => void {
  // Neither exists outside a browser (the unit tier's Node): nothing to listen to there.
  const win = typeof window === 'undefined' ? null : window;
  const doc = typeof document === 'undefined' ? null : document;
  const whenVisible = () => {
    if (doc?.visibilityState === 'visible') run();
  };
  win?.addEventListener('online', run);
  doc?.addEventListener('visibilitychange', whenVisible);
  return () => {
    win?.removeEventListener('online', run);
    doc?.removeEventListener('visibilitychange', whenVisible);
  };
}
