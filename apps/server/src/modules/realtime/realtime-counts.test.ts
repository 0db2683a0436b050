import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../test-support/deferred';
import { realtimeHarness } from '../../test-support/realtime-harness';
import { topics } from './hub';

// Unread totals (notification_count) in rounds: one query for everyone due, the first round on the next turn
// after a quiet spell, later ones at most once per 250 ms; a failed round is tried again by the next.

/** What the fake database answers: each user's unread total, read at the moment of the query. */
const unread = new Map<number, number>();

let h: ReturnType<typeof realtimeHarness>;
beforeEach(async () => {
  vi.useFakeTimers();
  unread.clear();
  h = realtimeHarness({
    totalsUnread: async (ids) =>
      new Map(ids.flatMap((id) => (unread.has(id) ? [[id, unread.get(id) ?? 0]] : []))),
  });
  await h.listen(...[1, 2, 3, 4].map(topics.user));
});
afterEach(() => {
  h.service.close();
  vi.useRealTimers();
});

/** The queries so far: the users each counted, in order. */
const queries = () => h.totalsUnread.mock.calls.map(([ids]) => [...ids].sort((a, b) => a - b));
/** The counts sent so far, as [time, user, count], by time and then user. */
const counts = () =>
  h.published
    .filter((p) => p.frame.type === 'notification_count')
    .map((p) => [p.at, Number(p.topic.split(':')[1]), p.frame.count] as const)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);

describe('unread count rounds', () => {
  it('counts everyone due with one query on the next turn, and sends each their total', async () => {
    unread.set(1, 3).set(2, 1);
    h.service.countsChanged([1, 2, 3]);
    h.service.countsChanged([2, 1]);
    expect(h.totalsUnread).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(0);
    expect(queries()).toEqual([[1, 2, 3]]);
    // A user without unread messages is told 0.
    expect(counts()).toEqual([
      [0, 1, 3],
      [0, 2, 1],
      [0, 3, 0],
    ]);
  });

  it('gathers the changes of the 250 ms after a round into the next round, reading the counts then', async () => {
    unread.set(1, 1);
    h.service.countsChanged([1]);
    await vi.advanceTimersByTimeAsync(0);
    // At 10, 100 and 240 ms.
    for (const [wait, id] of [
      [10, 2],
      [90, 1],
      [140, 3],
    ] as const) {
      await vi.advanceTimersByTimeAsync(wait);
      unread.set(id, (unread.get(id) ?? 0) + 1);
      h.service.countsChanged([id]);
    }
    await vi.advanceTimersByTimeAsync(9);
    expect(queries()).toEqual([[1]]);
    await vi.advanceTimersByTimeAsync(1);
    expect(queries()).toEqual([[1], [1, 2, 3]]);
    expect(counts()).toEqual([
      [0, 1, 1],
      [250, 1, 2],
      [250, 2, 1],
      [250, 3, 1],
    ]);
  });

  it('runs a round per window while changes keep coming, and is prompt again after a quiet one', async () => {
    h.service.countsChanged([1]);
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersByTimeAsync(60);
      h.service.countsChanged([(i % 4) + 1]);
    }
    await vi.advanceTimersByTimeAsync(1000);
    const rounds = [...new Set(counts().map(([at]) => at))];
    expect(rounds).toEqual([0, 250, 500, 750]);
    expect(queries()).toHaveLength(4);

    h.service.countsChanged([4]);
    await vi.advanceTimersByTimeAsync(0);
    expect(counts().at(-1)).toEqual([1600, 4, 0]);
  });

  it('leaves a change made during a round’s query to the next round', async () => {
    const query = deferred<Map<number, number>>();
    h.totalsUnread.mockReturnValueOnce(query.promise);
    h.service.countsChanged([1]);
    await vi.advanceTimersByTimeAsync(0);
    h.service.countsChanged([2]);
    query.resolve(new Map([[1, 5]]));
    await vi.advanceTimersByTimeAsync(250);
    expect(queries()).toEqual([[1], [2]]);
    expect(counts()).toEqual([
      [0, 1, 5],
      [250, 2, 0],
    ]);
  });

  it('logs a failed round and counts its users again in the next, with those due since', async () => {
    h.totalsUnread.mockRejectedValueOnce(new Error('database down'));
    h.service.countsChanged([1, 2]);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.error).toHaveBeenCalledTimes(1);
    expect(counts()).toEqual([]);
    h.service.countsChanged([3]);
    unread.set(2, 4);
    await vi.advanceTimersByTimeAsync(250);
    expect(queries()).toEqual([
      [1, 2],
      [1, 2, 3],
    ]);
    expect(counts()).toEqual([
      [250, 1, 0],
      [250, 2, 4],
      [250, 3, 0],
    ]);
  });

  it('retries a failed round even when nothing else changed', async () => {
    h.totalsUnread.mockRejectedValueOnce(new Error('database down'));
    h.service.countsChanged([1]);
    await vi.advanceTimersByTimeAsync(500);
    expect(counts()).toEqual([[250, 1, 0]]);
  });

  it('counts the users an unread.changed event names', async () => {
    h.events.emit('unread.changed', { userIds: [2, 4] });
    await vi.advanceTimersByTimeAsync(0);
    expect(queries()).toEqual([[2, 4]]);
  });

  it('sends nothing once closed', async () => {
    h.service.countsChanged([1]);
    await vi.advanceTimersByTimeAsync(0);
    h.service.countsChanged([2]);
    h.service.close();
    expect(vi.getTimerCount()).toBe(0);
    h.service.countsChanged([3]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(queries()).toEqual([[1]]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores changes after it closed, scheduling nothing', async () => {
    h.service.close();
    h.service.countsChanged([1]);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.totalsUnread).not.toHaveBeenCalled();
  });
});
