import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { OpeningGate, OpeningsBusyError } from './socket-connection';

// The gate socket openings pass (socket-connection.ts), over plain promises: each task waits on a promise the
// test resolves, so which tasks run at a given moment is known exactly.

/** A task that records when it starts and settles when `finish` or `fail` is called (before or after it starts). */
function heldTask(started: number[], id: number) {
  let finish: () => void = () => {};
  let fail: (err: Error) => void = () => {};
  const settled = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  settled.catch(() => {});
  const task = () => {
    started.push(id);
    return settled;
  };
  return { task, finish: () => finish(), fail: (err: Error) => fail(err) };
}

describe('OpeningGate', () => {
  it('runs at most `limit` tasks at once and the rest in arrival order', async () => {
    const gate = new OpeningGate(2, 10);
    const started: number[] = [];
    const tasks = [0, 1, 2, 3, 4].map((id) => heldTask(started, id));
    const done = tasks.map((t) => gate.run(t.task));
    await nextTurn();
    expect(started).toEqual([0, 1]);
    expect(gate.inFlight).toBe(2);
    expect(gate.queued).toBe(3);

    tasks[1]?.finish();
    await nextTurn();
    expect(started).toEqual([0, 1, 2]);
    tasks[0]?.fail(new Error('refused'));
    await expect(done[0]).rejects.toThrow('refused');
    await nextTurn();
    // A failed task gives its place back like a finished one.
    expect(started).toEqual([0, 1, 2, 3]);
    for (const t of tasks) t.finish();
    await Promise.allSettled(done);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(gate.peakInFlight).toBe(2);
    expect(gate.inFlight).toBe(0);
    expect(gate.queued).toBe(0);
  });

  it('refuses only once every place is taken and the queue is at its bound', async () => {
    const gate = new OpeningGate(1, 2);
    const started: number[] = [];
    expect(gate.refuse()).toBe(false);
    const tasks = [0, 1, 2].map((id) => heldTask(started, id));
    const done = tasks.map((t) => gate.run(t.task));
    await nextTurn();
    expect(gate.queued).toBe(2);
    expect(gate.refuse()).toBe(true);
    expect(gate.refused).toBe(1);
    tasks[0]?.finish();
    await nextTurn();
    expect(gate.refuse()).toBe(false);
    for (const t of tasks) t.finish();
    await Promise.all(done);
    expect(gate.inFlight).toBe(0);
  });

  it('a task arriving after the queue drained starts at once', async () => {
    const gate = new OpeningGate(1, 0);
    await gate.run(async () => {});
    const started: number[] = [];
    const t = heldTask(started, 7);
    const done = gate.run(t.task);
    await nextTurn();
    expect(started).toEqual([7]);
    t.finish();
    await done;
    expect(gate.peakInFlight).toBe(1);
  });

  it('gives an opening that hangs up its place after the time limit, and lets the next in', async () => {
    vi.useFakeTimers();
    try {
      const gate = new OpeningGate(1, 5, 1_000);
      const started: number[] = [];
      const hung = heldTask(started, 0);
      const next = heldTask(started, 1);
      const first = gate.run(hung.task);
      const second = gate.run(next.task);
      const refusal = expect(first).rejects.toBeInstanceOf(OpeningsBusyError);
      await vi.advanceTimersByTimeAsync(999);
      expect(started).toEqual([0]);
      await vi.advanceTimersByTimeAsync(1);
      await refusal;
      expect(started).toEqual([0, 1]);
      expect(gate.timedOut).toBe(1);
      // The hung task failing later is nobody's unhandled rejection.
      hung.fail(new Error('late'));
      next.finish();
      await second;
      expect(gate.inFlight).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
