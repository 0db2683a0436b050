import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { SharedCounter } from '../local-first-rate-limit';
import { MemoryRateLimiter, type RateLimiter, type RateLimitResult } from '../rate-limit';
import { COMMAND_TIMEOUT_MS, type RedisOutage, redisClient, redisOutage, whenReachable } from './client';

/**
 * INCRBY, and the window's expiry when this count started it, in one step: the total and the time left. A key
 * left without an expiry (by a PEXPIRE that never ran) gets one here too.
 */
const ADD_SCRIPT = `local n = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {n, ttl}`;

/**
 * Fixed-window counters in Redis, so a limit holds across every process. While Redis is away (or does not
 * answer within COMMAND_TIMEOUT_MS) the limits fail open to this process's own counters, the same limits counted
 * here alone: a person spread over several processes may get each process's allowance until Redis is back, and
 * nobody is refused or kept waiting for want of Redis.
 */
export class RedisRateLimiter implements RateLimiter, SharedCounter {
  private readonly redis: Redis;
  private readonly outage: RedisOutage;
  /** This process's counts while Redis is away; forgotten once it answers again. */
  private readonly local = new MemoryRateLimiter();

  constructor(url: string, log?: FastifyBaseLogger) {
    this.redis = redisClient(url, { maxRetriesPerRequest: 3, commandTimeout: COMMAND_TIMEOUT_MS }, log);
    this.outage = redisOutage(url, log);
    this.redis.on('ready', () => void this.local.close());
  }
  private key(k: string) {
    return `parley:rl:${k}`;
  }
  async add(key: string, by: number, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    try {
      const [count, ttl] = (await whenReachable(this.redis, () =>
        this.redis.eval(ADD_SCRIPT, 1, this.key(key), by, windowMs),
      )) as [number, number];
      return { count, resetInMs: ttl };
    } catch {
      this.outage.note('rateLimitsCountedHere');
      return this.local.add(key, by, windowMs);
    }
  }
  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const { count, resetInMs } = await this.add(key, 1, windowMs);
    return { allowed: count <= limit, retryAfterSeconds: resetInMs / 1000 };
  }

  async peek(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const k = this.key(key);
    try {
      const [[, count], [, ttl]] = (await whenReachable(this.redis, () =>
        this.redis.multi().get(k).pttl(k).exec(),
      )) as [[null, string | null], [null, number]];
      const n = Number(count ?? 0);
      return { allowed: n < limit, retryAfterSeconds: Math.max(0, ttl) / 1000 };
    } catch {
      return this.local.peek(key, limit, windowMs);
    }
  }
  async reset(key: string) {
    await this.local.reset(key);
    // Left to expire with its window when Redis is away: a reset only ever forgives.
    await whenReachable(this.redis, () => this.redis.del(this.key(key))).catch(() => {});
  }
  /** Rejects at once while Redis is away (readiness). */
  async ping() {
    await whenReachable(this.redis, () => this.redis.ping());
  }
  async close() {
    this.redis.disconnect();
    await this.local.close();
  }
}
