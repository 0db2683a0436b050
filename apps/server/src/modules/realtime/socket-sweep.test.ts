import { CLOSE_AUTH_FAILED } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MemoryBus } from '../../platform/bus';
import { type FakeClient, fakeClient } from '../../test-support/fake-socket';
import { Hub, SocketSweep, topics } from './hub';

// One liveness round for every socket of the process: ping, drop the silent, close the signed-out.

afterEach(() => {
  vi.useRealTimers();
});

function setUp(live: (ids: number[]) => Promise<Set<number>> = async (ids) => new Set(ids)) {
  const hub = new Hub({ bus: new MemoryBus() });
  const log: string[] = [];
  const liveAmong = vi.fn(live);
  const error = vi.fn();
  const sweep = new SocketSweep({
    hub,
    sessions: { liveAmong },
    log: { error } as unknown as FastifyBaseLogger,
    intervalMs: 1000,
  });
  const watch = (name: string, sessionId: number): FakeClient => {
    const c = fakeClient(log, name, { userId: sessionId, sessionId });
    hub.attach(topics.user(sessionId), c.client);
    return c;
  };
  return { hub, sweep, liveAmong, error, watch };
}

describe('SocketSweep', () => {
  it('pings every open socket, asks once about all their sessions and closes those that ended', async () => {
    const { sweep, liveAmong, watch } = setUp(async () => new Set([1]));
    const kept = watch('kept', 1);
    const ended = watch('ended', 2);
    const gone = watch('gone', 3);
    gone.ws.readyState = 3;

    await sweep.sweep();
    expect(liveAmong.mock.calls).toEqual([[[1, 2]]]);
    expect([kept.ws.pings, ended.ws.pings, gone.ws.pings]).toEqual([1, 1, 0]);
    expect(kept.ws.closeCodes).toEqual([]);
    expect(ended.ws.closeCodes).toEqual([CLOSE_AUTH_FAILED]);
  });

  it('terminates a socket that did not answer the previous ping and pings one that did', async () => {
    const { sweep, watch } = setUp();
    const answers = watch('answers', 1);
    const silent = watch('silent', 2);
    await sweep.sweep();
    answers.ws.emit('pong');
    await sweep.sweep();
    expect(silent.ws.terminated).toBe(true);
    expect(silent.ws.pings).toBe(1);
    expect(answers.ws.terminated).toBe(false);
    expect(answers.ws.pings).toBe(2);
    // Answered once, silent since: the next round drops it.
    await sweep.sweep();
    expect(answers.ws.terminated).toBe(true);
  });

  it('keeps every socket when the session look-up fails, and asks again next round', async () => {
    const { sweep, liveAmong, error, watch } = setUp(async () => {
      throw new Error('database down');
    });
    const a = watch('a', 1);
    await sweep.sweep();
    expect(error).toHaveBeenCalledTimes(1);
    expect(a.ws.closeCodes).toEqual([]);
    a.ws.emit('pong');
    liveAmong.mockResolvedValueOnce(new Set());
    await sweep.sweep();
    expect(a.ws.closeCodes).toEqual([CLOSE_AUTH_FAILED]);
  });

  it('does not query when no socket is open', async () => {
    const { sweep, liveAmong } = setUp();
    await sweep.sweep();
    expect(liveAmong).not.toHaveBeenCalled();
  });

  it('does not start a second round while one waits for its look-up', async () => {
    let answer: (live: Set<number>) => void = () => {};
    const { sweep, liveAmong, watch } = setUp(
      () =>
        new Promise<Set<number>>((resolve) => {
          answer = resolve;
        }),
    );
    const a = watch('a', 1);
    const first = sweep.sweep();
    const second = sweep.sweep();
    expect(second).toBe(first);
    answer(new Set([1]));
    await first;
    expect(liveAmong).toHaveBeenCalledTimes(1);
    expect(a.ws.pings).toBe(1);
  });

  it('runs a round each interval once started, and none after it stopped', async () => {
    vi.useFakeTimers();
    const { sweep, watch } = setUp();
    const a = watch('a', 1);
    sweep.start().start();
    await vi.advanceTimersByTimeAsync(999);
    expect(a.ws.pings).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(a.ws.pings).toBe(1);
    a.ws.emit('pong');
    await vi.advanceTimersByTimeAsync(1000);
    expect(a.ws.pings).toBe(2);
    await sweep.stop();
    a.ws.emit('pong');
    await vi.advanceTimersByTimeAsync(5000);
    expect(a.ws.pings).toBe(2);
  });
});
