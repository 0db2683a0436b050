import net from 'node:net';
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { capturedLog } from '../../test-support/captured-log';
import type { BusMessage } from '../bus';
import { LocalFirstRateLimiter } from '../local-first-rate-limit';
import { RedisOutage, redisOutage } from './client';
import { RedisBus } from './redis-bus';
import { RedisPresence, RedisPresenceStore, RedisRoomPresence } from './redis-presence';
import { RedisRateLimiter } from './redis-rate-limit';

// What the Redis-backed parts do while Redis is away, against a port where nothing listens: they answer from
// this process at once (never an error, never a wait), and the outage is logged once for all of them.

/** A port on this machine where nothing listens. */
async function closedPort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`no ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('RedisOutage', () => {
  it('logs one warning when the first client loses Redis and one line, with what was done meanwhile, when the last is back', () => {
    const { lines, log } = capturedLog();
    const outage = new RedisOutage('127.0.0.1:6379', log);
    const [one, two] = [{}, {}] as Redis[] as [Redis, Redis];
    outage.lost(one, 'ECONNRESET');
    outage.lost(two, 'ECONNREFUSED');
    outage.lost(one, 'ECONNREFUSED');
    for (let i = 0; i < 50; i++) outage.note('framesHeardHereOnly');
    outage.note('rateLimitsCountedHere', 3);
    expect(outage.ongoing).toBe(true);
    outage.back(one);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, redis: '127.0.0.1:6379', code: 'ECONNRESET' });
    outage.back(two);
    expect(outage.ongoing).toBe(false);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({
      level: 30,
      msg: 'Redis answers again',
      framesHeardHereOnly: 50,
      rateLimitsCountedHere: 3,
    });
    expect(typeof lines[1]?.downForMs).toBe('number');
    // The next outage starts its own count.
    outage.lost(two, 'ECONNRESET');
    outage.back(two);
    expect(lines).toHaveLength(4);
    expect(lines[3]).not.toHaveProperty('framesHeardHereOnly');
  });

  it('is shared by the clients of one logger and address, apart for another logger', () => {
    const { log } = capturedLog();
    const other = capturedLog().log;
    expect(redisOutage('redis://:secret@127.0.0.1:7000', log)).toBe(
      redisOutage('redis://127.0.0.1:7000/1', log),
    );
    expect(redisOutage('redis://127.0.0.1:7000', log)).not.toBe(redisOutage('redis://127.0.0.1:7000', other));
    expect(redisOutage('redis://127.0.0.1:7000', log)).not.toBe(redisOutage('redis://127.0.0.1:7001', log));
  });
});

describe('while Redis is away', () => {
  async function away() {
    const { lines, log } = capturedLog();
    const url = `redis://127.0.0.1:${await closedPort()}`;
    const limiter = new RedisRateLimiter(url, log);
    const bus = new RedisBus(url, undefined, log);
    const store = new RedisPresenceStore(url, log);
    await until(() => redisOutage(url, log).ongoing, 'outage');
    // Every client has failed once: from here on nothing is sent to Redis.
    await new Promise((r) => setTimeout(r, 50));
    const close = async () => {
      await Promise.all([limiter.close(), bus.close(), store.close()]);
    };
    return { lines, limiter, bus, store, close };
  }

  it('rate limits count in this process: the same limit, decided at once', async () => {
    const { limiter, lines, close } = await away();
    try {
      const hits = [];
      for (let i = 0; i < 4; i++) hits.push((await limiter.hit('k', 3, 10_000)).allowed);
      expect(hits).toEqual([true, true, true, false]);
      expect((await limiter.peek('k', 3, 10_000)).allowed).toBe(false);
      await limiter.reset('k');
      expect((await limiter.hit('k', 3, 10_000)).allowed).toBe(true);
      // The chat messages' limiter over it decides the same way, never with an error.
      const messages = new LocalFirstRateLimiter(limiter);
      const sent = [];
      for (let i = 0; i < 5; i++) sent.push((await messages.hit('m', 4, 10_000)).allowed);
      expect(sent).toEqual([true, true, true, true, false]);
      await expect(limiter.ping()).rejects.toThrow('Redis is not connected');
      expect(lines.filter((l) => l.level === 40)).toHaveLength(1);
    } finally {
      await close();
    }
  });

  it('the bus delivers to this process at once and does not fail', async () => {
    const { bus, close } = await away();
    try {
      const heard: BusMessage[] = [];
      const off = await bus.subscribe('room:c1', (m) => heard.push(m));
      await bus.publish('room:c1', { data: '{"n":1}' });
      expect(heard).toEqual([{ data: '{"n":1}' }]);
      await expect(bus.ping()).rejects.toThrow('Redis is not connected');
      await off();
    } finally {
      await close();
    }
  });

  it('presence answers with this process’s own counts', async () => {
    const { store, close } = await away();
    try {
      const presence = new RedisPresence(store);
      const rooms = new RedisRoomPresence(store);
      expect(await presence.connect(7)).toBe(true);
      expect(await presence.connect(7)).toBe(false);
      expect(await presence.connections(7)).toBe(2);
      expect(await presence.isOnline(7)).toBe(true);
      expect([...(await presence.onlineAmong([7, 8], { mirrored: true }))]).toEqual([7]);
      expect(await rooms.join('c1', 7)).toEqual([7]);
      expect(await rooms.usersIn('c1')).toEqual([7]);
      expect(await rooms.absentAmong('c1', [7, 8])).toEqual([8]);
      expect(await rooms.leave('c1', 7)).toEqual([]);
      expect(await presence.disconnect(7)).toBe(false);
      expect(await presence.disconnect(7)).toBe(true);
      expect(await presence.isOnline(7)).toBe(false);
    } finally {
      await close();
    }
  });
});
