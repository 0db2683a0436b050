import type { FollowedThreads } from '@parley/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { threadQueryKeys } from '../../../lib/queries/threads';

/** GET /api/threads/?cursor= → a page of the threads the reader follows, newest activity first. */
export const getFollowedThreads = (cursor?: string): Promise<FollowedThreads> =>
  api.get<FollowedThreads>(`/threads/${cursor ? `?${new URLSearchParams({ cursor })}` : ''}`);

/** The followed threads, page after page ('Load more'); read again whenever the view is opened. */
export const useFollowedThreads = () =>
  useInfiniteQuery({
    queryKey: threadQueryKeys.followed(),
    queryFn: ({ pageParam }) => getFollowedThreads(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchOnMount: 'always',
  });
