import type { SavedPage } from '@parley/protocol';
import { useInfiniteQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { savedQueryKeys } from '../../../lib/queries/saved';

/** GET /api/saved/?cursor= → a page of the person's saved messages, newest saved first. */
export const getSaved = (cursor?: string): Promise<SavedPage> =>
  api.get<SavedPage>(`/saved/${cursor ? `?${new URLSearchParams({ cursor })}` : ''}`);

/** The saved messages, page after page ('Load more'); read again whenever the view is opened. */
export const useSavedMessages = () =>
  useInfiniteQuery({
    queryKey: savedQueryKeys.list(),
    queryFn: ({ pageParam }) => getSaved(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    refetchOnMount: 'always',
  });
