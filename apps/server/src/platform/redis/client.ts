import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * How long a command waits for Redis before it is given up (a Redis that hangs rather than refuses): the callers
 * then do without it, as they do while it is away.
 */
export const COMMAND_TIMEOUT_MS = 1000;

/** Thrown instead of sending a command while Redis is away, so nothing waits in ioredis's offline queue. */
export class RedisUnavailableError extends Error {
  constructor() {
    super('Redis is not connected');
    this.name = 'RedisUnavailableError';
  }
}

/**
 * One Redis address's outage as this process sees it, shared by every client of the process to that address:
 * the first client that loses it logs one warning, and the last one back logs one info line with how long it
 * lasted and what was done without Redis meanwhile (`note`), so an outage is two lines whatever the traffic.
 */
export class RedisOutage {
  private readonly down = new Set<Redis>();
  private since = 0;
  private readonly tallies = new Map<string, number>();

  constructor(
    private readonly address: string,
    private readonly log?: FastifyBaseLogger,
  ) {}

  /** Whether some client of this address cannot reach it now. */
  get ongoing(): boolean {
    return this.down.size > 0;
  }

  lost(client: Redis, code: string): void {
    if (this.down.has(client)) return;
    this.down.add(client);
    if (this.down.size > 1) return;
    this.since = Date.now();
    this.log?.warn({ redis: this.address, code }, 'Redis does not answer; retrying');
  }

  back(client: Redis): void {
    if (!this.down.delete(client) || this.down.size > 0) return;
    const meanwhile = Object.fromEntries(this.tallies);
    this.tallies.clear();
    this.log?.info(
      { redis: this.address, downForMs: Date.now() - this.since, ...meanwhile },
      'Redis answers again',
    );
  }

  /** A client closed for good (the process stopping): it no longer keeps an outage open. */
  gone(client: Redis): void {
    this.down.delete(client);
  }

  /** Something done without Redis (`what`, camelCase): counted, and told in the line that ends the outage. */
  note(what: string, by = 1): void {
    this.tallies.set(what, (this.tallies.get(what) ?? 0) + by);
  }
}

/** Per logger (one per app) and address: apps in one test process keep their own. */
const outages = new WeakMap<object, Map<string, RedisOutage>>();
const noLogger = {};

/** The outage tracker that every client to `url` of this logger shares. */
export function redisOutage(url: string, log?: FastifyBaseLogger): RedisOutage {
  const owner = log ?? noLogger;
  let byAddress = outages.get(owner);
  if (!byAddress) {
    byAddress = new Map();
    outages.set(owner, byAddress);
  }
  const address = redactedAddress(url);
  let outage = byAddress.get(address);
  if (!outage) {
    outage = new RedisOutage(address, log);
    byAddress.set(address, outage);
  }
  return outage;
}

/** Whether each client has been ready once, and has failed since it was made. */
const history = new WeakMap<Redis, { everReady: boolean; failed: boolean }>();

/**
 * An ioredis client whose connection errors are logged once per outage (see RedisOutage) — never ioredis's own
 * 'Unhandled error event' stack, which it prints for a client without an error listener at every reconnection
 * attempt.
 */
export function redisClient(url: string, options: RedisOptions, log?: FastifyBaseLogger): Redis {
  const redis = new Redis(url, options);
  const outage = redisOutage(url, log);
  const seen = { everReady: false, failed: false };
  history.set(redis, seen);
  redis.on('error', (err: Error & { code?: string }) => {
    seen.failed = true;
    outage.lost(redis, err.code ?? err.name);
  });
  redis.on('ready', () => {
    seen.everReady = true;
    outage.back(redis);
  });
  redis.on('end', () => outage.gone(redis));
  return redis;
}

const STARTING = new Set(['wait', 'connecting', 'connect']);

/**
 * Whether a command sent now goes out: the connection is ready, or it is being made for the first time and
 * has not failed yet (the command waits for it briefly). False while Redis is away: callers do without it
 * rather than queue behind reconnection attempts.
 */
export function reachable(redis: Redis): boolean {
  if (redis.status === 'ready') return true;
  const seen = history.get(redis);
  return !!seen && !seen.everReady && !seen.failed && STARTING.has(redis.status);
}

/** `command()`, or a RedisUnavailableError at once while Redis is away. */
export function whenReachable<T>(redis: Redis, command: () => Promise<T>): Promise<T> {
  if (!reachable(redis)) return Promise.reject(new RedisUnavailableError());
  return command();
}

/** host:port of a Redis URL, without its password. */
function redactedAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '6379'}`;
  } catch {
    return 'redis';
  }
}
