import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/http/api-error';
import { createQueryClient, GC_TIME_MS, retryDelay, shouldRetry } from './query-client';

describe('query client defaults (SPEC §9)', () => {
  it('keeps data 5 minutes', () => {
    expect(createQueryClient().getDefaultOptions().queries?.gcTime).toBe(GC_TIME_MS);
    expect(GC_TIME_MS).toBe(300_000);
  });

  it('doubles the retry delay from 1000 ms, capped at 30000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 10].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('retries 3 times on network and server errors', () => {
    const error = new ApiError(503, null);
    expect([0, 1, 2, 3].map((n) => shouldRetry(n, error))).toEqual([true, true, true, false]);
    expect(shouldRetry(0, new ApiError(0, null))).toBe(true);
  });

  it('does not retry refusals, except timeouts and rate limits', () => {
    expect(shouldRetry(0, new ApiError(404, null))).toBe(false);
    expect(shouldRetry(0, new ApiError(403, null))).toBe(false);
    expect(shouldRetry(0, new ApiError(429, null))).toBe(true);
  });
});
