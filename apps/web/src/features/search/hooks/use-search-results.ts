import { useMemo } from 'react';
import { useMyChats } from '../../../lib/queries/chat-list-query';
import { usePeopleSearch } from '../../../lib/queries/people-search';
import type { SearchScope } from '../../../lib/ui/search-dialogs';
import { useDebouncedValue } from '../../../lib/ui/use-debounced-value';
import { useMessageSearch } from '../api/search-messages';
import { buildGroups } from '../lib/result-model';

const DEBOUNCE_MS = 200;

/**
 * The dialog's grouped results for what is typed: people and messages from the server once typing pauses,
 * chats from the chat list cache at once. Within a chat's scope, only that chat's messages.
 */
export function useSearchResults(query: string, scope: SearchScope | null) {
  const settled = useDebouncedValue(query.trim(), DEBOUNCE_MS);
  const scoped = scope !== null;
  const people = usePeopleSearch(scoped ? '' : settled);
  const chats = useMyChats(!scoped);
  const messages = useMessageSearch(settled, scope?.chat_id ?? null);

  const typed = query.trim();
  const groups = useMemo(
    () =>
      buildGroups({
        query: typed,
        // Server results for an older query (kept while the new one loads) are shown only while they apply.
        people: !scoped && settled !== '' ? (people.data ?? []) : [],
        chats: scoped ? [] : (chats.data ?? []),
        messages: settled !== '' ? (messages.data?.pages.flatMap((p) => p.results) ?? []) : [],
        moreMessages: Boolean(messages.hasNextPage),
      }),
    [typed, scoped, settled, people.data, chats.data, messages.data, messages.hasNextPage],
  );

  const waiting = typed !== settled;
  const loading =
    typed !== '' &&
    (waiting ||
      (!scoped && (people.isFetching || people.isPlaceholderData)) ||
      (messages.isFetching && !messages.isFetchingNextPage) ||
      messages.isPlaceholderData);
  const failed = (!scoped && people.isError) || messages.isError;

  return {
    groups,
    /** The query the shown server results answer. */
    settled,
    loading,
    failed,
    loadingMore: messages.isFetchingNextPage,
    loadMore: () => void messages.fetchNextPage(),
    retry: () => {
      if (people.isError) void people.refetch();
      if (messages.isError) void messages.refetch();
    },
  };
}
