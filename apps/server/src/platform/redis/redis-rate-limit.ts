import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiter, RateLimitResult } from '../rate-limit';
import { redisClient } from './client';

/** Fixed-window counters in Redis, so a limit holds across every process. */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  constructor(url: string, log?: FastifyBaseLogger) {
    this.redis = redisClient(url, { maxRetriesPerRequest: 3 }, log);
  }
  private key(k: string) {
    return `parley:rl:${k}`;
  }
  async hit(key: string, limit: number, windowMs: number): Promise<RateLimitResult> {
    const k = this.key(key);
    const [[, count], [, ttl]] = (await this.redis.multi().incr(k).pttl(k).exec()) as [
      [null, number],
      [null, number],
    ];
    let remaining = ttl;
    if (ttl < 0) {
      await this.redis.pexpire(k, windowMs);
      remaining = windowMs;
    }
    return { allowed: count <= limit, retryAfterSeconds: remaining / 1000 };
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
