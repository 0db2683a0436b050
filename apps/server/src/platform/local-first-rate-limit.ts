import type { RateLimiter, RateLimitResult } from './rate-limit';

/** A shared store's atomic counter: adds `by` to `key`'s window (started by its first count) and says where it is. */
export interface SharedCounter {
  add(key: string, by: number, windowMs: number): Promise<{ count: number; resetInMs: number }>;
}

/** What this process last learnt of a key's shared window. */
interface Known {
  /** The highest total the store answered in this window (every process's hits, refused ones included). */
  count: number;
  /** When the window ends, by this process's clock (provisional until the store first answers). */
  resetAt: number;
  /** This process's counts sent and not yet answered. */
  inFlight: number;
}

/**
 * A fixed-window limit shared by every process, decided without waiting for the store while it is far from the
 * limit. Every hit is still counted in the shared store (the same window, key and total as `hit` there), but a
 * hit this process may let through on what it knows is let through at once and counted in the background: one
 * with nothing of its own in flight whose last known total plus one stays within the limit less `headroom`
 * (half of it). Any other hit — near the limit, or while an earlier count is unanswered — waits for the store
 * and is decided on the exact total, as a plain shared limiter would.
 *
 * So a person's hits one after another are decided exactly on any mix of processes, as long as no more than
 * `headroom` of them went to other processes since this one last heard the total; at worst, hits on several
 * processes at the same moment let one more through per process in a window.
 */
export class LocalFirstRateLimiter implements RateLimiter {
  private readonly known = new Map<string, Known>();
  private hits = 0;

  constructor(
    /** The shared limiter it counts in; its owner closes it. */
    private readonly store: SharedCounter & Pick<RateLimiter, 'peek' | 'reset' | 'ping'>,
    /** Of a limit, how much is always decided by the store: the share other processes may use unseen. */
    private readonly headroom: (limit: number) => number = (limit) => Math.ceil(limit / 2),
  ) {}

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    if (++this.hits % 1000 === 0) this.sweep(now);
    let k = this.known.get(key);
    if (k && k.resetAt <= now && k.inFlight === 0) {
      this.known.delete(key);
      k = undefined;
    }
    if (!k) {
      // Nothing known of this window: taken as empty, with the window starting now until the store says.
      k = { count: 0, resetAt: now + windowMs, inFlight: 0 };
      this.known.set(key, k);
    }
    if (k.inFlight === 0 && k.count + 1 <= limit - this.headroom(limit)) {
      k.count += 1;
      void this.count(key, k, windowMs).catch(() => {
        // A store that rejects: the next hit near the limit waits for it and fails as it would have. (Redis's
        // does not reject while Redis is away: it counts in this process instead.)
      });
      return { allowed: true, retryAfterSeconds: Math.max(0, k.resetAt - now) / 1000 };
    }
    const { count, resetInMs } = await this.count(key, k, windowMs);
    return { allowed: count <= limit, retryAfterSeconds: resetInMs / 1000 };
  }

  private async count(key: string, k: Known, windowMs: number) {
    k.inFlight += 1;
    try {
      const answer = await this.store.add(key, 1, windowMs);
      const resetAt = Date.now() + answer.resetInMs;
      // A later window than the one known (the store's ran out first) starts again from its own count.
      if (resetAt > k.resetAt + windowMs / 2) k.count = answer.count;
      else k.count = Math.max(k.count, answer.count);
      k.resetAt = resetAt;
      return answer;
    } finally {
      k.inFlight -= 1;
    }
  }

  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    return this.store.peek(key, limit, windowMs);
  }

  async reset(key: string): Promise<void> {
    this.known.delete(key);
    await this.store.reset(key);
  }

  ping(): Promise<void> {
    return this.store.ping();
  }

  /** Forgets what it knows; the store stays open for its owner. */
  async close(): Promise<void> {
    this.known.clear();
  }

  private sweep(now: number) {
    for (const [key, k] of this.known) if (k.resetAt <= now && k.inFlight === 0) this.known.delete(key);
  }
}
