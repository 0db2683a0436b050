import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BACKOFF_MAX_MS, Backoff, backoffDelay, RESTART_SPREAD_MS, waitAfterClose } from './backoff';

describe('backoffDelay', () => {
  it('doubles from 0.5–1 s and is capped at 30 s, however long the outage', () => {
    const low = () => 0;
    const high = () => 0.999_999;
    const waits = (random: () => number) =>
      [0, 1, 2, 3, 4, 5, 6, 10, 100, 10_000].map((n) => backoffDelay(n, { random }));
    expect(waits(low)).toEqual([500, 1000, 2000, 4000, 8000, 15_000, 15_000, 15_000, 15_000, 15_000]);
    expect(waits(high)).toEqual([999, 1999, 3999, 7999, 15_999, 29_999, 29_999, 29_999, 29_999, 29_999]);
    for (const wait of waits(Math.random)) expect(wait).toBeLessThanOrEqual(BACKOFF_MAX_MS);
  });

  it('takes its own base and cap', () => {
    expect(backoffDelay(0, { baseMs: 100, maxMs: 150, random: () => 0.5 })).toBe(75);
    expect(backoffDelay(5, { baseMs: 100, maxMs: 150, random: () => 0.5 })).toBe(112);
  });
});

describe('Backoff', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('waits longer after each failure, says when the run is due, and starts over after a success', async () => {
    const backoff = new Backoff({ random: () => 0.5 });
    const run = vi.fn();
    const start = Date.now();
    expect(backoff.schedule(run)).toBe(start + 750);
    expect(backoff.dueAt).toBe(start + 750);
    await vi.advanceTimersByTimeAsync(749);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(backoff.dueAt).toBeNull();

    backoff.schedule(run);
    await vi.advanceTimersByTimeAsync(1499);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
    expect(backoff.failures).toBe(2);

    backoff.reset();
    expect(backoff.failures).toBe(0);
    backoff.schedule(run);
    await vi.advanceTimersByTimeAsync(750);
    expect(run).toHaveBeenCalledTimes(3);
  });

  it('keeps trying every 15–30 s through an outage of hours', async () => {
    const backoff = new Backoff();
    let tries = 0;
    const attempt = () => {
      tries++;
      backoff.schedule(attempt);
    };
    backoff.schedule(attempt);
    await vi.advanceTimersByTimeAsync(60 * 60 * 1000);
    // 0.5–1, 1–2, 2–4, 4–8, 8–16 s, then one at most every 30 s and at least every 15 s.
    expect(tries).toBeGreaterThanOrEqual(115);
    expect(tries).toBeLessThanOrEqual(245);
    expect((backoff.dueAt ?? 0) - Date.now()).toBeLessThanOrEqual(BACKOFF_MAX_MS);
  });

  it('now() runs what waits at once, once, and keeps the count', async () => {
    const backoff = new Backoff({ random: () => 0 });
    const run = vi.fn();
    expect(backoff.now()).toBe(false);
    backoff.schedule(run);
    backoff.schedule(run);
    expect(backoff.now()).toBe(true);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(backoff.failures).toBe(2);
    // The next failure waits the third step: 2–4 s, 2 s with this draw.
    backoff.schedule(run);
    await vi.advanceTimersByTimeAsync(1999);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('takes a wait the caller names, and cancel() drops the run', async () => {
    const backoff = new Backoff();
    const run = vi.fn();
    backoff.schedule(run, 0);
    await vi.advanceTimersByTimeAsync(0);
    expect(run).toHaveBeenCalledTimes(1);
    backoff.schedule(run);
    backoff.cancel();
    expect(backoff.dueAt).toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('waitAfterClose', () => {
  it('comes within a second after a restarting server closed an open socket, else leaves it to the back-off', () => {
    expect(waitAfterClose(true, 0, () => 0.999_999)).toBeLessThan(RESTART_SPREAD_MS);
    expect(waitAfterClose(true, 0, () => 0)).toBe(0);
    // A 1012 after failed attempts, or any other close, waits the back-off's next step.
    expect(waitAfterClose(true, 2, () => 0)).toBeUndefined();
    expect(waitAfterClose(false, 0, () => 0)).toBeUndefined();
  });
});
