import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';

/**
 * An ioredis client whose connection errors are logged as one warning line per outage (its address and the
 * error's code), and its return as one info line — never ioredis's own 'Unhandled error event' stack, which it
 * prints for a client without an error listener at every reconnection attempt.
 */
export function redisClient(url: string, options: RedisOptions, log?: FastifyBaseLogger): Redis {
  const redis = new Redis(url, options);
  let down = false;
  redis.on('error', (err: Error & { code?: string }) => {
    if (down) return;
    down = true;
    log?.warn({ redis: redactedAddress(url), code: err.code ?? err.name }, 'Redis does not answer; retrying');
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    log?.info({ redis: redactedAddress(url) }, 'Redis answers again');
  });
  return redis;
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
