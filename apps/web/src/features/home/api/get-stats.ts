import { type AppStats, HOME_CACHE_MS } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/** GET /api/stats → total_users, total_messages (public). */
export const getStats = (): Promise<AppStats> => publicApi.get<AppStats>('/stats');

export const statsQueryKey = ['stats'] as const;

/** SPEC §9: the home data stays fresh for 60 s. */
export const statsQueryOptions = () =>
  queryOptions({ queryKey: statsQueryKey, queryFn: getStats, staleTime: HOME_CACHE_MS });

export const useStats = () => useQuery(statsQueryOptions());
