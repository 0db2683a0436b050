import { TooManyRequestsError } from './errors';
import type { RateLimiter } from './rate-limit';

/** Counts one event (or, with `peekOnly`, only checks) and throws a 429 with Retry-After when over the limit. */
export async function enforceLimit(
  limiter: RateLimiter,
  key: string,
  limit: number,
  windowMs: number,
  peekOnly = false,
): Promise<void> {
  const r = peekOnly ? await limiter.peek(key, limit, windowMs) : await limiter.hit(key, limit, windowMs);
  if (!r.allowed) throw new TooManyRequestsError(r.retryAfterSeconds);
}
