import type { OwnProfile } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

/** GET /api/users/profile/ → the signed-in user's own profile. */
export const getOwnProfile = (): Promise<OwnProfile> => api.get<OwnProfile>('/users/profile/');

export const ownProfileQueryKey = ['profile', 'me'] as const;

export const ownProfileQueryOptions = () =>
  queryOptions({ queryKey: ownProfileQueryKey, queryFn: getOwnProfile });

export const useOwnProfile = () => useQuery(ownProfileQueryOptions());
