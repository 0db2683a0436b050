import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Bus, BusMessage } from '../bus';
import type { Metrics } from '../metrics';
import { redisClient } from './client';

type Handler = (m: BusMessage) => void;

/**
 * On the wire: `<origin>\n<meta JSON>\n<data>`. The frame in `data` is already JSON, so it travels as it is
 * instead of being escaped into a second JSON document and parsed back on every process. The meta carries
 * when it was published (`at`, Date.now()), for the subscribe latency.
 */
function encode(origin: string, { data, ...meta }: BusMessage): string {
  return `${origin}\n${JSON.stringify({ ...meta, at: Date.now() })}\n${data}`;
}

function decode(raw: string): { message: BusMessage; at?: number } | null {
  const first = raw.indexOf('\n');
  const second = first === -1 ? -1 : raw.indexOf('\n', first + 1);
  if (second === -1) return null;
  const { at, ...meta } = JSON.parse(raw.slice(first + 1, second)) as Omit<BusMessage, 'data'> & {
    at?: number;
  };
  return { message: { ...meta, data: raw.slice(second + 1) }, at };
}

/**
 * Redis pub/sub behind the Bus interface: one connection publishes, one subscribes. A topic is subscribed in
 * Redis while any local handler wants it, so each process only receives the rooms and users it serves.
 * This process's own subscribers get a message at once, in publish order, without the Redis round trip; it
 * is published tagged with this process's id, and that echo is dropped when it comes back.
 */
export class RedisBus implements Bus {
  /** Fresh per bus, never reused: an echo is recognised by it. */
  readonly processId = randomBytes(8).toString('hex');
  private readonly echo = `${this.processId}\n`;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly handlers = new Map<string, Set<Handler>>();
  /** The Redis SUBSCRIBE of each topic with handlers: a new handler waits for it like the first one did. */
  private readonly subscribed = new Map<string, Promise<unknown>>();

  constructor(
    url: string,
    private readonly metrics?: Pick<Metrics, 'redisPublished' | 'redisReceived'>,
    log?: FastifyBaseLogger,
  ) {
    this.pub = redisClient(url, { lazyConnect: false, maxRetriesPerRequest: 3 }, log);
    this.sub = redisClient(url, { lazyConnect: false }, log);
    this.sub.on('message', (topic: string, raw: string) => {
      const set = this.handlers.get(topic);
      // Our own echo: its subscribers here had it when it was published.
      if (!set || raw.startsWith(this.echo)) return;
      const decoded = decode(raw);
      if (!decoded) return;
      if (decoded.at !== undefined) this.metrics?.redisReceived(decoded.at);
      for (const h of set) h(decoded.message);
    });
  }

  async publish(topic: string, message: BusMessage) {
    // Queued first, so a failing local handler cannot keep it from the other processes.
    const started = performance.now();
    const sent = this.pub.publish(topic, encode(this.processId, message));
    if (this.metrics)
      void sent.then(
        () => this.metrics?.redisPublished(performance.now() - started),
        () => {},
      );
    try {
      const set = this.handlers.get(topic);
      if (set) for (const h of set) h(message);
    } finally {
      await sent;
    }
  }

  async subscribe(topic: string, handler: Handler) {
    let set = this.handlers.get(topic);
    if (!set) {
      set = new Set();
      this.handlers.set(topic, set);
      this.subscribed.set(topic, this.sub.subscribe(topic));
    }
    const subscribed = this.subscribed.get(topic);
    set.add(handler);
    const off = async () => {
      const current = this.handlers.get(topic);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(topic);
      this.subscribed.delete(topic);
      await this.sub.unsubscribe(topic).catch(() => {});
    };
    try {
      await subscribed;
    } catch (err) {
      await off();
      throw err;
    }
    return off;
  }

  async close() {
    this.handlers.clear();
    this.subscribed.clear();
    this.sub.disconnect();
    this.pub.disconnect();
  }
}
