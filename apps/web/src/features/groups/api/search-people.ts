import { HOME_CACHE_MS, type ProfileListItem } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** GET /api/profiles: the people who can be found (hidden profiles are not listed), for the add-members search. */
export const getPeople = (): Promise<ProfileListItem[]> => api.get<ProfileListItem[]>('/profiles');

// The home page's key: both read the same list, so it is fetched once.
export const usePeople = (enabled: boolean) =>
  useQuery({ queryKey: ['profiles', 'list'], queryFn: getPeople, staleTime: HOME_CACHE_MS, enabled });

/** People whose display name or username contains the query (case-insensitive), members left out. */
export function matchPeople(
  people: readonly ProfileListItem[],
  query: string,
  memberIds: ReadonlySet<number>,
  limit = 8,
): ProfileListItem[] {
  const q = query.trim().replace(/^@/, '').toLowerCase();
  if (!q) return [];
  return people
    .filter(
      (p) =>
        !memberIds.has(p.id) &&
        (p.username.toLowerCase().includes(q) || (p.displayname ?? '').toLowerCase().includes(q)),
    )
    .slice(0, limit);
}
