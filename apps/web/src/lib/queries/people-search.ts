import type { ProfileListItem } from '@parley/protocol';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../http/api-client';

// Shared: the search dialog, the New Chat dialog and a group's add-members field all find people this way, and
// one feature never imports another.

const PEOPLE_SEARCH_STALE_MS = 30_000;

/**
 * GET /api/users/search/?q= → up to 20 profile list items whose username, display name or full name has a word
 * starting with each word of `q` (accents and case ignored); hidden profiles are never listed.
 */
export const searchPeople = (q: string, signal?: AbortSignal): Promise<ProfileListItem[]> =>
  api.get<ProfileListItem[]>(`/users/search/?${new URLSearchParams({ q })}`, { signal });

export const peopleSearchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['profiles', 'search', q] as const,
    queryFn: ({ signal }) => searchPeople(q, signal),
    staleTime: PEOPLE_SEARCH_STALE_MS,
  });

/** Searches once `q` (already debounced by the caller) has something in it; the last answer stays meanwhile. */
export const usePeopleSearch = (q: string) =>
  useQuery({
    ...peopleSearchQueryOptions(q.trim()),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
