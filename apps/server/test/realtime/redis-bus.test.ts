import { afterEach, describe, expect, it } from 'vitest';
import type { BusMessage } from '../../src/platform/bus';
import { RedisBus } from '../../src/platform/redis/redis-bus';

// The Redis bus delivers to this process's own subscribers at once, in publish order, and drops its own
// echo when Redis sends it back; other processes get every message once, in order
// (bench/findings/2026-11-21-what-a-message-cost.md, finding 6).

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('RedisBus', () => {
  const buses: RedisBus[] = [];
  afterEach(async () => {
    for (const b of buses.splice(0)) await b.close();
  });
  const newBus = () => {
    const bus = new RedisBus(redisUrl as string);
    buses.push(bus);
    return bus;
  };
  const topic = () => `test:${Math.random().toString(36).slice(2)}`;

  /** Resolves with what `seen` holds once it has `n` entries (or rejects after a while). */
  async function until<T>(seen: T[], n: number): Promise<T[]> {
    const deadline = Date.now() + 5000;
    while (seen.length < n) {
      if (Date.now() > deadline) throw new Error(`only ${seen.length} of ${n} arrived`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return seen;
  }

  it('delivers locally before the round trip, in order, once; remote processes get each once, in order', async () => {
    const [a, b] = [newBus(), newBus()];
    const t = topic();
    const atA: BusMessage[] = [];
    const atB: BusMessage[] = [];
    await a.subscribe(t, (m) => atA.push(m));
    await b.subscribe(t, (m) => atB.push(m));

    const sent: BusMessage[] = Array.from({ length: 200 }, (_, i) => ({
      data: JSON.stringify({ type: 'chat_message', body: `line ${i}\nwith "quotes" and \\ and é` }),
      ...(i % 3 === 0 ? { exceptUserId: i } : {}),
    }));
    sent.push({ data: '', close: { code: 4004, chatId: 'c-1', sessionIds: [1, 2] } });
    const published = sent.map((m, i) => {
      const p = a.publish(t, m);
      // Synchronously: the local subscriber already has it.
      expect(atA).toHaveLength(i + 1);
      return p;
    });
    await Promise.all(published);
    expect(atA).toEqual(sent);
    expect(await until(atB, sent.length)).toEqual(sent);

    // B's messages reach A once; B does not get its own back.
    await b.publish(t, { data: 'from b' });
    expect((await until(atA, sent.length + 1)).at(-1)).toEqual({ data: 'from b' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(atA).toHaveLength(sent.length + 1);
    expect(atB).toHaveLength(sent.length + 1);
  });

  it('stops delivering to a handler once unsubscribed, locally and from elsewhere', async () => {
    const [a, b] = [newBus(), newBus()];
    const t = topic();
    const kept: BusMessage[] = [];
    const dropped: BusMessage[] = [];
    await a.subscribe(t, (m) => kept.push(m));
    const off = await a.subscribe(t, (m) => dropped.push(m));
    await a.publish(t, { data: '1' });
    await off();
    await a.publish(t, { data: '2' });
    await b.publish(t, { data: '3' });
    await until(kept, 3);
    expect(kept.map((m) => m.data)).toEqual(['1', '2', '3']);
    expect(dropped.map((m) => m.data)).toEqual(['1']);
  });
});
