import type { PublicProfile } from '@parley/protocol';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { publicProfileQueryKey } from '../../../lib/queries/presence';

/**
 * GET /api/users/@{username}/ → what anyone may see of a user (404 no such user, 403 hidden). The
 * authenticated client is used so an owner may see their own hidden profile; a visitor simply has no token.
 */
export const getPublicProfile = (username: string): Promise<PublicProfile> =>
  api.get<PublicProfile>(`/users/@${encodeURIComponent(username)}/`);

// The key is lib's: presence frames write the person's online state into the cached profile.
export const publicProfileQueryOptions = (username: string) =>
  queryOptions({ queryKey: publicProfileQueryKey(username), queryFn: () => getPublicProfile(username) });

export const usePublicProfile = (username: string) => useQuery(publicProfileQueryOptions(username));
