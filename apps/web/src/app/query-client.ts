import { onlineManager, QueryClient } from '@tanstack/react-query';
import { isApiError } from '../lib/http/api-error';

// SPEC §9 cache defaults: kept 5 minutes, 3 retries, 1000 ms doubled per attempt, capped at 30000 ms.
export const GC_TIME_MS = 5 * 60 * 1000;
export const MAX_RETRIES = 3;

export const retryDelay = (attempt: number): number => Math.min(1000 * 2 ** attempt, 30_000);

/** A refusal (4xx other than timeout and rate limit) will not change on retry; everything else gets three tries. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false;
  if (isApiError(error) && error.status >= 400 && error.status < 500) {
    return error.status === 408 || error.status === 429;
  }
  return true;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { gcTime: GC_TIME_MS, retry: shouldRetry, retryDelay },
      mutations: { retry: false },
    },
  });
}

// TanStack Query v5 starts out assuming a network. Parley starts from the browser's own flag, so a screen opened
// offline waits (paused, showing what the persisted cache restored) instead of failing after its retries.
if (typeof navigator !== 'undefined' && typeof navigator.onLine === 'boolean')
  onlineManager.setOnline(navigator.onLine);

export const queryClient = createQueryClient();
