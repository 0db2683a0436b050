// The one rule for everything that tries again by itself while the server is away: the sockets
// (chat-socket.ts, never giving up), code loaded on demand (lib/ui/retry-import.ts), and the restart benchmark's
// clients (bench/load/restart-job.ts, through the package's `@parley/web/backoff` export). Capped exponential
// back-off with "equal jitter": the wait after n failures in a row is drawn between half and all of
// min(max, base × 2^n), so a crowd sent away by one restart comes back spread out, a short drop is retried within
// a second and a long outage every 15–30 s, for as long as it lasts. A moment when trying is likely to work (the
// network back, the tab shown: retry-chance.ts; a person pressing Try now) skips the wait. No browser API here:
// the benchmark's clients run this in Node.

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

/** After a 1012 the first attempt comes within this long: "at once", spread so a restart's crowd is not one wave. */
export const RESTART_SPREAD_MS = 1000;

/**
 * The sockets' wait after a close: within RESTART_SPREAD_MS when a restarting server (1012) closed a socket that
 * was open (no failure yet), otherwise undefined, the back-off's next wait.
 */
export function waitAfterClose(
  restarting: boolean,
  failures: number,
  random: () => number = Math.random,
): number | undefined {
  return restarting && failures === 0 ? Math.floor(random() * RESTART_SPREAD_MS) : undefined;
}

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
