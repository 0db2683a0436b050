import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retryImport } from './retry-import';

describe('retryImport', () => {
  // The unit tier runs in Node: a bare event target stands in for the browser's window.
  beforeEach(() => {
    vi.stubGlobal('window', new EventTarget());
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('tries a failed load again after its back-off waits until it loads', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const load = vi.fn(async () => {
      calls += 1;
      if (calls < 3) throw new TypeError('Failed to fetch dynamically imported module');
      return 'module';
    });
    const loaded = retryImport(load, { baseMs: 200, random: () => 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(199);
    expect(load).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    await expect(loaded).resolves.toBe('module');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('tries again at once when the browser comes back online', async () => {
    vi.useFakeTimers();
    let online = false;
    const load = vi.fn(async () => {
      if (!online) throw new TypeError('offline');
      return 42;
    });
    const loaded = retryImport(load, { baseMs: 120_000, maxMs: 120_000, random: () => 0 });
    await vi.advanceTimersByTimeAsync(0);
    online = true;
    window.dispatchEvent(new Event('online'));
    await expect(loaded).resolves.toBe(42);
    expect(load).toHaveBeenCalledTimes(2);
    // The timer of the attempt it replaced does not fire a third load.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
