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

/**
 * The per-person chat message limit (config.messageRateLimit messages in this window): one count whichever way
 * the messages come, a room socket's frames or POST …/messages/.
 */
export const MESSAGE_WINDOW_MS = 10_000;
export const messageLimitKey = (userId: number): string => `ws-msg:${userId}`;
