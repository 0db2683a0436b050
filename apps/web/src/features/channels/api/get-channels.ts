import type { ChannelDirectory } from '@parley/protocol';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { channelQueryKeys } from '../../../lib/queries/channels';
import { channelsPath } from '../lib/directory-texts';

/** GET /api/channels/?q=&cursor= → a page of public groups, most members first; `next_cursor` null at the end. */
export const getChannels = (q: string, cursor?: string): Promise<ChannelDirectory> =>
  api.get<ChannelDirectory>(channelsPath(q, cursor));

/**
 * The directory for a search, page after page ('Load more'). While a new search loads, the last one's results
 * stay on screen, so the list does not blink at every word typed.
 */
export const useChannelDirectory = (q: string) =>
  useInfiniteQuery({
    queryKey: channelQueryKeys.directory(q),
    queryFn: ({ pageParam }) => getChannels(q, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
  });
