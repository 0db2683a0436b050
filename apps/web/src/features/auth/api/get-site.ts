import type { PublicSite } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/**
 * GET /api/site/ → who may sign up (open, closed, or addresses at some domains), whether an invite link can still be
 * used, and the other ways to sign in: the auth screen says so before anyone fills a form.
 */
export const getSite = (): Promise<PublicSite> => publicApi.get<PublicSite>('/site/');

export const siteQueryKey = ['site'] as const;

/** An operator's change reaches a screen left open within a minute. */
export const siteQueryOptions = () =>
  queryOptions({ queryKey: siteQueryKey, queryFn: getSite, staleTime: 60_000 });

export const useSite = () => useQuery(siteQueryOptions());
