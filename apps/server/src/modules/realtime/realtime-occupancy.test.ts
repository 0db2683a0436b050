import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { deferred } from '../../test-support/deferred';
import { realtimeHarness } from '../../test-support/realtime-harness';
import { topics } from './hub';

// Room occupancy (in_chat_users_update + in_chat_count): the first change after a quiet spell is announced on
// the next turn, later ones at most once per room per 250 ms, each announcement reading the room as it is then.

const sorted = (ids: unknown) => [...(ids as number[])].sort((a, b) => a - b);

let h: ReturnType<typeof realtimeHarness>;
beforeEach(async () => {
  vi.useFakeTimers();
  h = realtimeHarness();
  await h.listen(topics.room('c1'), topics.room('c2'));
});
afterEach(() => {
  h.service.close();
  vi.useRealTimers();
});

async function change(kind: 'join' | 'leave', userId: number, chatId = 'c1') {
  await h.rooms[kind](chatId, userId);
  h.service.roomOccupancyChanged(chatId);
}

/** The announcements so far: when each went out, and whom it said are in the room. */
function announcements(chatId = 'c1') {
  const mine = h.published.filter((p) => p.topic === topics.room(chatId));
  const users = mine.filter((p) => p.frame.type === 'in_chat_users_update');
  const counts = mine.filter((p) => p.frame.type === 'in_chat_count');
  expect(counts.map((c) => [c.at, c.frame.count])).toEqual(
    users.map((u) => [u.at, sorted(u.frame.user_ids).length]),
  );
  return users.map((u) => ({ at: u.at, users: sorted(u.frame.user_ids) }));
}

describe('room occupancy announcements', () => {
  it('announces the first change after a quiet spell on the next turn', async () => {
    await change('join', 1);
    expect(h.published).toEqual([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(h.published.map((p) => p.frame)).toEqual([
      { type: 'in_chat_users_update', user_ids: [1] },
      { type: 'in_chat_count', count: 1 },
    ]);
  });

  it('gathers the changes of the 250 ms after an announcement into one, with the latest state', async () => {
    await change('join', 1);
    await vi.advanceTimersByTimeAsync(0);
    for (const id of [2, 3, 4]) {
      await vi.advanceTimersByTimeAsync(50);
      await change('join', id);
    }
    await change('leave', 1);
    await vi.advanceTimersByTimeAsync(99);
    expect(announcements()).toEqual([{ at: 0, users: [1] }]);
    await vi.advanceTimersByTimeAsync(1);
    expect(announcements()).toEqual([
      { at: 0, users: [1] },
      { at: 250, users: [2, 3, 4] },
    ]);
    // One read of the room per announcement, not per change.
    expect(h.usersIn).toHaveBeenCalledTimes(2);
  });

  it('makes one announcement of several changes before the prompt one goes out', async () => {
    await change('join', 1);
    await change('join', 2);
    await change('join', 3);
    await vi.advanceTimersByTimeAsync(1000);
    expect(announcements()).toEqual([{ at: 0, users: [1, 2, 3] }]);
    expect(h.usersIn).toHaveBeenCalledTimes(1);
  });

  it('is prompt again once a window has passed without a change', async () => {
    await change('join', 1);
    await vi.advanceTimersByTimeAsync(250);
    // The window after the first announcement ended quietly: the next change goes out at once.
    await vi.advanceTimersByTimeAsync(50);
    await change('join', 2);
    await vi.advanceTimersByTimeAsync(0);
    expect(announcements()).toEqual([
      { at: 0, users: [1] },
      { at: 300, users: [1, 2] },
    ]);
  });

  it('keeps going, one announcement per window, while changes keep coming', async () => {
    await change('join', 1);
    for (let id = 2; id <= 11; id++) {
      await vi.advanceTimersByTimeAsync(100);
      await change('join', id);
    }
    await vi.advanceTimersByTimeAsync(1000);
    // The last join, at 1000 ms, came just after the announcement then: it waits for the next window's end.
    expect(announcements().map((a) => a.at)).toEqual([0, 250, 500, 750, 1000, 1250]);
    expect(announcements().at(-1)?.users).toHaveLength(11);
  });

  it('announces at the window’s end a change made while the room was being read', async () => {
    const read = deferred<number[]>();
    await change('join', 1);
    h.usersIn.mockReturnValueOnce(read.promise);
    await vi.advanceTimersByTimeAsync(0);
    // The read started before Grace joined, so its answer may not hold her.
    await change('join', 2);
    read.resolve([1]);
    await vi.advanceTimersByTimeAsync(0);
    expect(announcements()).toEqual([{ at: 0, users: [1] }]);
    await vi.advanceTimersByTimeAsync(250);
    expect(announcements()).toEqual([
      { at: 0, users: [1] },
      { at: 250, users: [1, 2] },
    ]);
  });

  it('announces even when the set of people is unchanged (a second socket of someone already there)', async () => {
    await change('join', 1);
    await vi.advanceTimersByTimeAsync(300);
    await change('join', 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(announcements()).toEqual([
      { at: 0, users: [1] },
      { at: 300, users: [1] },
    ]);
  });

  it('keeps rooms apart: each has its own prompt announcement and window', async () => {
    await change('join', 1, 'c1');
    await vi.advanceTimersByTimeAsync(100);
    await change('join', 2, 'c2');
    await vi.advanceTimersByTimeAsync(0);
    await change('join', 3, 'c1');
    await change('join', 4, 'c2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(announcements('c1')).toEqual([
      { at: 0, users: [1] },
      { at: 250, users: [1, 3] },
    ]);
    expect(announcements('c2')).toEqual([
      { at: 100, users: [2] },
      { at: 350, users: [2, 4] },
    ]);
  });

  it('logs a failed read and still holds the next change to the window', async () => {
    await change('join', 1);
    h.usersIn.mockRejectedValueOnce(new Error('redis down'));
    await vi.advanceTimersByTimeAsync(0);
    expect(h.error).toHaveBeenCalledTimes(1);
    await change('join', 2);
    await vi.advanceTimersByTimeAsync(250);
    expect(announcements()).toEqual([{ at: 250, users: [1, 2] }]);
  });

  it('sends nothing once closed, neither what was due nor later changes', async () => {
    await change('join', 1);
    await vi.advanceTimersByTimeAsync(0);
    await change('join', 2);
    h.service.close();
    // Nothing left waiting either (a closing app must not be held open by a window's timer).
    expect(vi.getTimerCount()).toBe(0);
    await change('join', 3, 'c2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(announcements()).toEqual([{ at: 0, users: [1] }]);
    expect(announcements('c2')).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('ignores changes after it closed, scheduling nothing', async () => {
    h.service.close();
    await change('join', 1);
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(h.usersIn).not.toHaveBeenCalled();
  });
});
