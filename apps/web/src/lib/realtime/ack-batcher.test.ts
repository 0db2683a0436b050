import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACK_INTERVAL_MS, createAckBatcher, createKeyedAckBatcher } from './ack-batcher';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

const batcher = (opts: { maxIds?: number; onIdle?: () => void } = {}) => {
  const sent: number[][] = [];
  const b = createAckBatcher({ send: (ids) => sent.push(ids), ...opts });
  return { b, sent };
};

describe('createAckBatcher', () => {
  it('sends the first ids after a quiet spell at once (leading edge)', () => {
    const { b, sent } = batcher();
    b.add([3, 1]);
    expect(sent).toEqual([[1, 3]]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('merges ids added within the window into one batch at its end', () => {
    const { b, sent } = batcher();
    b.add([1]);
    vi.advanceTimersByTime(50);
    b.add([2]);
    vi.advanceTimersByTime(50);
    b.add([4, 3]);
    expect(sent).toEqual([[1]]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS - 100 - 1);
    expect(sent).toEqual([[1]]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([[1], [2, 3, 4]]);
  });

  it('sends at most once per interval under a steady stream', () => {
    const { b, sent } = batcher();
    for (let t = 0; t < 1000; t += 10) {
      b.add([t + 1]);
      vi.advanceTimersByTime(10);
    }
    // One leading send, then one per 250 ms window.
    expect(sent.length).toBeLessThanOrEqual(1 + 1000 / ACK_INTERVAL_MS);
    expect(sent.flat()).toHaveLength(100);
  });

  it('de-duplicates ids within a batch', () => {
    const { b, sent } = batcher();
    b.add([1]);
    b.add([2, 2, 5]);
    b.add([5, 2]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(sent).toEqual([[1], [2, 5]]);
  });

  it('goes quiet after an empty window, so the next ids go out at once again', () => {
    const onIdle = vi.fn();
    const { b, sent } = batcher({ onIdle });
    b.add([1]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(onIdle).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    b.add([2]);
    expect(sent).toEqual([[1], [2]]);
  });

  it('ignores an empty add while quiet', () => {
    const { b, sent } = batcher();
    b.add([]);
    expect(sent).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('splits a batch larger than the frame limit', () => {
    const { b, sent } = batcher({ maxIds: 2 });
    b.add([5, 4, 3, 2, 1]);
    expect(sent).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('flushes what is queued on stop and leaves no timer', () => {
    const { b, sent } = batcher();
    b.add([1]);
    b.add([2, 3]);
    b.stop();
    expect(sent).toEqual([[1], [2, 3]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('sends nothing after stop', () => {
    const { b, sent } = batcher();
    b.add([1]);
    b.stop();
    b.add([2]);
    b.flush();
    vi.advanceTimersByTime(ACK_INTERVAL_MS * 4);
    expect(sent).toEqual([[1]]);
  });

  it('flush sends now without waiting for the window', () => {
    const { b, sent } = batcher();
    b.add([1]);
    b.add([2]);
    b.flush();
    expect(sent).toEqual([[1], [2]]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(sent).toEqual([[1], [2]]);
  });

  it('drop forgets what is queued', () => {
    const { b, sent } = batcher();
    b.add([1]);
    b.add([2]);
    expect(b.pendingCount).toBe(1);
    b.drop();
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    b.stop();
    expect(sent).toEqual([[1]]);
  });
});

describe('createKeyedAckBatcher', () => {
  it('keeps one window per key', () => {
    const sent: [string, number[]][] = [];
    const b = createKeyedAckBatcher<string>((key, ids) => sent.push([key, ids]));
    b.add('a', [1]);
    b.add('b', [10]);
    b.add('a', [2]);
    b.add('a', [3]);
    b.add('b', [11]);
    expect(sent).toEqual([
      ['a', [1]],
      ['b', [10]],
    ]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(sent.slice(2)).toEqual([
      ['a', [2, 3]],
      ['b', [11]],
    ]);
  });

  it('holds no timer once every key is idle, and starts fresh afterwards', () => {
    const sent: [string, number[]][] = [];
    const b = createKeyedAckBatcher<string>((key, ids) => sent.push([key, ids]));
    b.add('a', [1]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS);
    expect(vi.getTimerCount()).toBe(0);
    b.add('a', [2]);
    expect(sent).toEqual([
      ['a', [1]],
      ['a', [2]],
    ]);
  });

  it('flushes every key on stop and sends nothing after', () => {
    const sent: [string, number[]][] = [];
    const b = createKeyedAckBatcher<string>((key, ids) => sent.push([key, ids]));
    b.add('a', [1]);
    b.add('a', [2]);
    b.add('b', [7]);
    b.add('b', [8]);
    b.stop();
    b.add('a', [3]);
    vi.advanceTimersByTime(ACK_INTERVAL_MS * 4);
    expect(sent).toEqual([
      ['a', [1]],
      ['b', [7]],
      ['a', [2]],
      ['b', [8]],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
