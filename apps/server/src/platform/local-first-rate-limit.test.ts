import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalFirstRateLimiter, type SharedCounter } from './local-first-rate-limit';

const WINDOW = 10_000;

/**
 * The shared store as Redis keeps it (a window started by its first count), answering only when told to, so a
 * test sees which hits waited for it and which did not.
 */
class FakeStore implements SharedCounter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();
  readonly waiting: (() => void)[] = [];
  adds = 0;
  down = false;

  add(key: string, by: number, windowMs: number) {
    this.adds += 1;
    return new Promise<{ count: number; resetInMs: number }>((resolve, reject) => {
      this.waiting.push(() => {
        if (this.down) return reject(new Error('redis down'));
        const now = Date.now();
        let w = this.windows.get(key);
        if (!w || w.resetAt <= now) {
          w = { count: 0, resetAt: now + windowMs };
          this.windows.set(key, w);
        }
        w.count += by;
        resolve({ count: w.count, resetInMs: w.resetAt - now });
      });
    });
  }
  /** Answers every count sent so far, in order. */
  async answer() {
    for (const reply of this.waiting.splice(0)) reply();
    await vi.advanceTimersByTimeAsync(0);
  }
  total(key: string) {
    return this.windows.get(key)?.count ?? 0;
  }
  peek = vi.fn(async () => ({ allowed: true, retryAfterSeconds: 0 }));
  reset = vi.fn(async () => {});
  ping = vi.fn(async () => {});
  close = vi.fn(async () => {});
}

/** A hit, and whether it was decided before the store answered anything. */
async function hitNow(limiter: LocalFirstRateLimiter, key = 'ws-msg:1', limit = 20) {
  let settled: { allowed: boolean; retryAfterSeconds: number } | null = null;
  const pending = limiter.hit(key, limit, WINDOW).then((r) => {
    settled = r;
    return r;
  });
  await vi.advanceTimersByTimeAsync(0);
  return { local: settled !== null, pending };
}

describe('LocalFirstRateLimiter', () => {
  let store: FakeStore;
  beforeEach(() => {
    vi.useFakeTimers();
    store = new FakeStore();
  });
  afterEach(() => vi.useRealTimers());

  it('lets hits through without waiting while far from the limit, and still counts each in the store', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    for (let i = 0; i < 5; i++) {
      const hit = await hitNow(limiter);
      expect(hit.local).toBe(true);
      expect((await hit.pending).allowed).toBe(true);
      await store.answer();
    }
    expect(store.total('ws-msg:1')).toBe(5);
  });

  it('waits for the store near the limit and refuses past it, with the time the window has left', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    const decided: string[] = [];
    for (let i = 1; i <= 21; i++) {
      const hit = await hitNow(limiter);
      decided.push(hit.local ? 'local' : 'store');
      await store.answer();
      const r = await hit.pending;
      expect(r.allowed).toBe(i <= 20);
      // 20 hits 100 ms apart: 8 s of the window are left.
      if (i === 21) expect(r.retryAfterSeconds).toBeCloseTo(8, 5);
      vi.advanceTimersByTime(100);
    }
    // Half the limit is always decided by the store.
    expect(decided).toEqual([...Array(10).fill('local'), ...Array(11).fill('store')]);
  });

  it('holds the limit for hits alternating between two processes, exactly', async () => {
    // Two processes, one store: as the two-process test sends them, each waiting for the one before.
    const a = new LocalFirstRateLimiter(store);
    const b = new LocalFirstRateLimiter(store);
    const allowed: boolean[] = [];
    for (let i = 0; i < 24; i++) {
      const hit = await hitNow(i % 2 === 0 ? a : b);
      await store.answer();
      allowed.push((await hit.pending).allowed);
    }
    expect(allowed).toEqual([...Array(20).fill(true), ...Array(4).fill(false)]);
  });

  it('waits for the store while a count of its own is unanswered', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    const first = await hitNow(limiter);
    const second = await hitNow(limiter);
    expect([first.local, second.local]).toEqual([true, false]);
    await store.answer();
    await store.answer();
    expect((await second.pending).allowed).toBe(true);
    expect(store.total('ws-msg:1')).toBe(2);
  });

  it('lets at most one more through per process when another spent the limit unseen', async () => {
    const a = new LocalFirstRateLimiter(store);
    const b = new LocalFirstRateLimiter(store);
    for (let i = 0; i < 25; i++) {
      const hit = await hitNow(b);
      await store.answer();
      await hit.pending;
    }
    // A knew nothing of the window: its first hit goes through, and the answer to it stops the next.
    const first = await hitNow(a);
    expect(first.local).toBe(true);
    expect((await first.pending).allowed).toBe(true);
    await store.answer();
    const next = await hitNow(a);
    expect(next.local).toBe(false);
    await store.answer();
    expect((await next.pending).allowed).toBe(false);
  });

  it('starts afresh once the window has passed', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    for (let i = 0; i < 21; i++) {
      const hit = await hitNow(limiter);
      await store.answer();
      await hit.pending;
    }
    vi.advanceTimersByTime(WINDOW + 1);
    const later = await hitNow(limiter);
    expect(later.local).toBe(true);
    expect((await later.pending).allowed).toBe(true);
    await store.answer();
    expect(store.total('ws-msg:1')).toBe(1);
  });

  it('decides a limit of one by the store alone', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    const hit = await hitNow(limiter, 'one', 1);
    expect(hit.local).toBe(false);
    await store.answer();
    expect((await hit.pending).allowed).toBe(true);
  });

  it('fails a hit that waits for an unreachable store, and lets the background count fail quietly', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    store.down = true;
    const first = await hitNow(limiter);
    expect((await first.pending).allowed).toBe(true);
    await store.answer();
    const second = await hitNow(limiter, 'ws-msg:1', 2);
    const failed = second.pending.catch((err: Error) => err.message);
    await store.answer();
    expect(await failed).toBe('redis down');
  });

  it('hands peek, reset and ping to the store, and leaves it open when closed', async () => {
    const limiter = new LocalFirstRateLimiter(store);
    await limiter.peek('k', 5, WINDOW);
    await limiter.reset('k');
    await limiter.ping();
    await limiter.close();
    expect(store.peek).toHaveBeenCalledWith('k', 5, WINDOW);
    expect(store.reset).toHaveBeenCalledWith('k');
    expect(store.ping).toHaveBeenCalled();
    expect(store.close).not.toHaveBeenCalled();
  });
});
