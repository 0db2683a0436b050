import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PresenceMirror, type PresenceSource } from './presence-mirror';

/** Redis as the mirror sees it: hashes of `<process>|<field>` counts and the processes with a heartbeat. */
class FakeRedis implements PresenceSource {
  readonly hashes = new Map<string, Record<string, string>>();
  readonly beating = new Set<string>(['p1', 'p2']);
  reads = 0;
  heartbeatChecks = 0;
  down = false;
  /** While set, reads wait for `release()`. */
  held: (() => void)[] | null = null;

  async read(key: string) {
    this.reads += 1;
    if (this.held) await new Promise<void>((resolve) => this.held?.push(resolve));
    if (this.down) throw new Error('redis down');
    return { ...(this.hashes.get(key) ?? {}) };
  }
  async alive(ids: string[]) {
    this.heartbeatChecks += 1;
    return new Set(ids.filter((id) => this.beating.has(id)));
  }
  set(key: string, field: string, count: number) {
    const hash = this.hashes.get(key) ?? {};
    if (count > 0) hash[field] = String(count);
    else delete hash[field];
    this.hashes.set(key, hash);
  }
  release() {
    for (const go of this.held?.splice(0) ?? []) go();
  }
}

const ROOM = 'parley:room:abc';

describe('PresenceMirror', () => {
  let redis: FakeRedis;
  let mirror: PresenceMirror;
  beforeEach(() => {
    vi.useFakeTimers();
    redis = new FakeRedis();
    mirror = new PresenceMirror(redis, { syncMs: 1000, idleMs: 60_000 });
    mirror.listen();
  });
  afterEach(() => {
    mirror.close();
    vi.useRealTimers();
  });

  it('reads a hash once, then answers from the copy', async () => {
    redis.set(ROOM, 'p1|7', 1);
    redis.set(ROOM, 'p2|8', 2);
    expect([...(await mirror.fields(ROOM))].sort()).toEqual(['7', '8']);
    for (let i = 0; i < 10; i++) await mirror.fields(ROOM);
    expect(redis.reads).toBe(1);
  });

  it('reads a hash again when told it changed; a read meanwhile waits for it', async () => {
    redis.set(ROOM, 'p1|7', 1);
    await mirror.fields(ROOM);
    redis.set(ROOM, 'p2|8', 1);
    redis.held = [];
    mirror.changed(ROOM);
    let answered = false;
    const reading = mirror.fields(ROOM).finally(() => {
      answered = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(answered).toBe(false);
    redis.release();
    expect([...(await reading)].sort()).toEqual(['7', '8']);
    expect(redis.reads).toBe(2);
  });

  it('reads once more after a read under way, however many changes were announced during it', async () => {
    redis.set(ROOM, 'p1|7', 1);
    await mirror.fields(ROOM);
    redis.held = [];
    redis.set(ROOM, 'p1|8', 1);
    mirror.changed(ROOM);
    await vi.advanceTimersByTimeAsync(0);
    // Announced while the read above is under way (which may or may not have seen them).
    redis.set(ROOM, 'p1|7', 0);
    mirror.changed(ROOM);
    redis.set(ROOM, 'p1|9', 1);
    mirror.changed(ROOM);
    const reading = mirror.fields(ROOM);
    redis.release();
    await vi.advanceTimersByTimeAsync(0);
    redis.release();
    expect([...(await reading)].sort()).toEqual(['8', '9']);
    expect(redis.reads).toBe(3);
  });

  it('ignores changes to hashes it does not keep', async () => {
    mirror.changed('parley:room:other');
    await vi.advanceTimersByTimeAsync(0);
    expect(redis.reads).toBe(0);
  });

  it('leaves out a process without a heartbeat within a sync, and counts zero counts nowhere', async () => {
    redis.set(ROOM, 'p1|7', 1);
    redis.set(ROOM, 'p2|8', 1);
    redis.set(ROOM, 'p2|9', 0);
    expect([...(await mirror.fields(ROOM))].sort()).toEqual(['7', '8']);
    redis.beating.delete('p2');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await mirror.fields(ROOM)).toEqual(['7']);
    expect(redis.reads).toBe(1);
  });

  it('learns of a dead process from a direct read at once', async () => {
    redis.set(ROOM, 'p2|8', 1);
    expect(await mirror.fields(ROOM)).toEqual(['8']);
    mirror.learn(['p2'], new Set());
    expect(await mirror.fields(ROOM)).toEqual([]);
  });

  it('checks the heartbeat of a process it has not seen before counting it', async () => {
    redis.set(ROOM, 'p3|5', 1);
    expect(await mirror.fields(ROOM)).toEqual([]);
    redis.beating.add('p3');
    await vi.advanceTimersByTimeAsync(1000);
    expect(await mirror.fields(ROOM)).toEqual(['5']);
  });

  it('forgets hashes nobody read for a minute', async () => {
    await mirror.fields(ROOM);
    await vi.advanceTimersByTimeAsync(61_000);
    await mirror.fields(ROOM);
    expect(redis.reads).toBe(2);
  });

  it('reads Redis every time while it is not listening, and drops its copies when it stops', async () => {
    redis.set(ROOM, 'p1|7', 1);
    await mirror.fields(ROOM);
    mirror.deaf();
    redis.set(ROOM, 'p1|8', 1);
    // A change announced while deaf is not heard: the read goes to Redis.
    expect([...(await mirror.fields(ROOM))].sort()).toEqual(['7', '8']);
    await mirror.fields(ROOM);
    expect(redis.reads).toBe(3);
    mirror.listen();
    await mirror.fields(ROOM);
    await mirror.fields(ROOM);
    expect(redis.reads).toBe(4);
  });

  it('fails a read when Redis does not answer, and reads again next time', async () => {
    redis.set(ROOM, 'p1|7', 1);
    await mirror.fields(ROOM);
    redis.down = true;
    mirror.changed(ROOM);
    await expect(mirror.fields(ROOM)).rejects.toThrow('redis down');
    redis.down = false;
    expect(await mirror.fields(ROOM)).toEqual(['7']);
  });
});
