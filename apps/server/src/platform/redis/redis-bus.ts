import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Bus, BusMessage } from '../bus';
import type { Metrics } from '../metrics';
import {
  COMMAND_TIMEOUT_MS,
  type RedisOutage,
  RedisUnavailableError,
  reachable,
  redisClient,
  redisOutage,
  whenReachable,
} from './client';

type Handler = (m: BusMessage) => void;

/** A promise of false that `settle` resolves. */
function signal(): { promise: Promise<false>; settle: () => void } {
  let settle = () => {};
  const promise = new Promise<false>((resolve) => {
    settle = () => resolve(false);
  });
  return { promise, settle };
}

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
 *
 * While Redis is away the bus serves this process alone: a publish reaches its own subscribers and is not
 * queued for the others (nor does it fail or wait), a topic subscribed meanwhile is heard here and subscribed in
 * Redis once it is back. What the processes published meanwhile is lost to each other, so when the subscriber
 * connection is back the `onReconnect` listeners are told (the Hub has its clients catch up).
 */
export class RedisBus implements Bus {
  /** Fresh per bus, never reused: an echo is recognised by it. */
  readonly processId = randomBytes(8).toString('hex');
  private readonly echo = `${this.processId}\n`;
  private readonly pub: Redis;
  private readonly sub: Redis;
  private readonly outage: RedisOutage;
  private readonly handlers = new Map<string, Set<Handler>>();
  /** The Redis SUBSCRIBE of each topic with handlers: a new handler waits for it like the first one did. */
  private readonly subscribed = new Map<string, Promise<unknown>>();
  /** Topics with handlers, taken while Redis was away: subscribed in Redis once it is back. */
  private readonly heardHereOnly = new Set<string>();
  /** Topics let go of while Redis was away: unsubscribed once it is back, unless wanted again by then. */
  private readonly letGo = new Set<string>();
  private readonly reconnectListeners: (() => void)[] = [];
  /** The subscriber connection has been ready once. */
  private heard = false;
  /** Settles (false) when the subscriber connection drops; a fresh one each time it is ready. */
  private dropped = signal();

  constructor(
    url: string,
    private readonly metrics?: Pick<Metrics, 'redisPublished' | 'redisReceived'>,
    log?: FastifyBaseLogger,
  ) {
    this.pub = redisClient(
      url,
      { lazyConnect: false, maxRetriesPerRequest: 3, commandTimeout: COMMAND_TIMEOUT_MS },
      log,
    );
    this.sub = redisClient(url, { lazyConnect: false }, log);
    this.outage = redisOutage(url, log);
    this.sub.on('message', (topic: string, raw: string) => {
      const set = this.handlers.get(topic);
      // Our own echo: its subscribers here had it when it was published.
      if (!set || raw.startsWith(this.echo)) return;
      const decoded = decode(raw);
      if (!decoded) return;
      if (decoded.at !== undefined) this.metrics?.redisReceived(decoded.at);
      for (const h of set) h(decoded.message);
    });
    this.sub.on('close', () => this.dropped.settle());
    this.sub.on('ready', () => {
      this.dropped = signal();
      this.heardAgain();
    });
  }

  async publish(topic: string, message: BusMessage) {
    // Queued first, so a failing local handler cannot keep it from the other processes.
    let sent: Promise<void> | undefined;
    if (reachable(this.pub)) {
      const started = performance.now();
      sent = this.pub.publish(topic, encode(this.processId, message)).then(
        () => this.metrics?.redisPublished(performance.now() - started),
        () => this.outage.note('framesHeardHereOnly'),
      );
    } else this.outage.note('framesHeardHereOnly');
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
      this.letGo.delete(topic);
      if (reachable(this.sub)) {
        const subscribing = this.sub.subscribe(topic);
        // Awaited below, unless Redis goes away first: its failure then is no one's.
        subscribing.catch(() => {});
        this.subscribed.set(topic, subscribing);
      } else this.heardHereOnly.add(topic);
    }
    const subscribed = this.subscribed.get(topic);
    set.add(handler);
    const off = async () => {
      const current = this.handlers.get(topic);
      if (!current?.delete(handler) || current.size > 0) return;
      this.handlers.delete(topic);
      this.subscribed.delete(topic);
      const onlyHere = this.heardHereOnly.delete(topic);
      if (reachable(this.sub)) {
        if (!onlyHere) await this.sub.unsubscribe(topic).catch(() => {});
      } else this.letGo.add(topic);
    };
    try {
      // Redis going away meanwhile: heard here until it is back.
      const answered = subscribed?.then(() => true);
      answered?.catch(() => {});
      if (answered && (await Promise.race([answered, this.untilDown()])) === false)
        this.subscribed.delete(topic);
      if (!this.subscribed.has(topic) && this.handlers.get(topic) === set) this.heardHereOnly.add(topic);
    } catch (err) {
      await off();
      throw err;
    }
    return off;
  }

  /** Rejects while either connection is not ready (readiness). */
  async ping() {
    if (this.sub.status !== 'ready') throw new RedisUnavailableError();
    await whenReachable(this.pub, () => this.pub.ping());
  }

  onReconnect(listener: () => void) {
    this.reconnectListeners.push(listener);
  }

  async close() {
    this.handlers.clear();
    this.subscribed.clear();
    this.heardHereOnly.clear();
    this.sub.disconnect();
    this.pub.disconnect();
  }

  /** Resolves false when the subscriber connection drops (or has already). */
  private untilDown(): Promise<false> {
    return reachable(this.sub) ? this.dropped.promise : Promise.resolve(false);
  }

  /**
   * The subscriber connection is ready: ioredis has subscribed again to what it had; the topics taken and let
   * go of meanwhile are settled here, and after a drop (or with topics heard here only) the listeners are told.
   */
  private heardAgain() {
    const missed = this.heard || this.heardHereOnly.size > 0;
    this.heard = true;
    const stale = [...this.letGo].filter((t) => !this.handlers.has(t));
    this.letGo.clear();
    if (stale.length > 0) void this.sub.unsubscribe(...stale).catch(() => {});
    for (const topic of this.heardHereOnly) {
      if (!this.handlers.has(topic)) continue;
      const subscribing = this.sub.subscribe(topic);
      this.subscribed.set(topic, subscribing);
      // Not subscribed after all (Redis gone again): heard here only until the next time.
      subscribing.catch(() => {
        if (this.subscribed.get(topic) === subscribing) this.subscribed.delete(topic);
        if (this.handlers.has(topic)) this.heardHereOnly.add(topic);
      });
    }
    this.heardHereOnly.clear();
    if (missed) for (const listener of this.reconnectListeners) listener();
  }
}
