import { HOME_CACHE_MS, type ProfileListItem } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '../../../lib/http/api-client';

/** GET /api/profiles → everyone to chat with (public; hidden profiles are not listed). */
export const getProfiles = (): Promise<ProfileListItem[]> => publicApi.get<ProfileListItem[]>('/profiles');

// Under 'profiles' so a profile update can mark the list stale without importing this feature.
export const profilesQueryKey = ['profiles', 'list'] as const;

/** SPEC §9: the home data stays fresh for 60 s. */
export const profilesQueryOptions = () =>
  queryOptions({ queryKey: profilesQueryKey, queryFn: getProfiles, staleTime: HOME_CACHE_MS });

export const useProfiles = () => useQuery(profilesQueryOptions());
