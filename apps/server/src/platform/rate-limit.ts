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
    const now = Date.now();
    if (++this.sweeps % 1000 === 0) this.sweep(now);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { allowed: w.count <= limit, retryAfterSeconds: (w.resetAt - now) / 1000 };
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
