import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { SharedCounter } from '../local-first-rate-limit';
import type { RateLimiter, RateLimitResult } from '../rate-limit';
import { redisClient } from './client';

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

/** Fixed-window counters in Redis, so a limit holds across every process. */
export class RedisRateLimiter implements RateLimiter, SharedCounter {
  private readonly redis: Redis;
  constructor(url: string, log?: FastifyBaseLogger) {
    this.redis = redisClient(url, { maxRetriesPerRequest: 3 }, log);
  }
  private key(k: string) {
    return `parley:rl:${k}`;
  }
  async add(key: string, by: number, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const [count, ttl] = (await this.redis.eval(ADD_SCRIPT, 1, this.key(key), by, windowMs)) as [
      number,
      number,
    ];
    return { count, resetInMs: ttl };
  }
  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const { count, resetInMs } = await this.add(key, 1, windowMs);
    return { allowed: count <= limit, retryAfterSeconds: resetInMs / 1000 };
  }

  async peek(key: string, limit: number, _windowMs: number): Promise<RateLimitResult> {
    const k = this.key(key);
    const [[, count], [, ttl]] = (await this.redis.multi().get(k).pttl(k).exec()) as [
      [null, string | null],
      [null, number],
    ];
    const n = Number(count ?? 0);
    return { allowed: n < limit, retryAfterSeconds: Math.max(0, ttl) / 1000 };
  }
  async reset(key: string) {
    await this.redis.del(this.key(key));
  }
  async ping() {
    await this.redis.ping();
  }
  async close() {
    this.redis.disconnect();
  }
}
