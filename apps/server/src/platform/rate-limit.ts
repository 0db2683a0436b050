// Keyed fixed-window counters. In-process by default; the scale-out work puts Redis behind the same interface.
export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Counts one event for `key` and says whether it is still within `limit` per `windowMs`. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  /** Says whether `key` has already used up `limit`, without counting. */
  peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult>;
  reset(key: string): Promise<void>;
  /** Rejects when the store behind it does not answer (readiness). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  private sweeps = 0;

  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const { count, resetInMs } = this.count(key, 1, windowMs);
    return { allowed: count <= limit, retryAfterSeconds: resetInMs / 1000 };
  }

  /** Adds `by` to `key`'s window (started by its first count): the total and the time left (a SharedCounter). */
  async add(key: string, by: number, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    return this.count(key, by, windowMs);
  }

  private count(key: string, by: number, windowMs: number): { count: number; resetInMs: number } {
    const now = Date.now();
    if (++this.sweeps % 1000 === 0) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += by;
    return { count: w.count, resetInMs: w.resetAt - now };
  }

  async peek(key: string, limit: number, _windowMs: number): Promise<RateLimitResult> {
    const now = Date.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return { allowed: true, retryAfterSeconds: 0 };
    return { allowed: w.count < limit, retryAfterSeconds: (w.resetAt - now) / 1000 };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async ping(): Promise<void> {}
  async close(): Promise<void> {
    this.windows.clear();
  }

  private sweep(now: number) {
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }
}
