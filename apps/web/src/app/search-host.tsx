import { Suspense, useEffect } from 'react';
import { useStore } from 'zustand';
import { useAuth } from '../lib/session/auth-store';
import { lazyRetry } from '../lib/ui/retry-import';
import { closeSearchDialogs, searchDialogs } from '../lib/ui/search-dialogs';
import { useOpenSearch } from './use-open-search';

// The dialogs' code loads the first time one opens, so it is not part of the first download (DESIGN §8).
const SearchDialog = lazyRetry(async () => ({
  default: (await import('../features/search/components/search-dialog')).SearchDialog,
}));
const NewChatDialog = lazyRetry(async () => ({
  default: (await import('../features/search/components/new-chat-dialog')).NewChatDialog,
}));

const isSearchShortcut = (event: KeyboardEvent) =>
  (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k';

/** Signed in: Ctrl+K / Cmd+K anywhere opens the search (or closes it); the open dialog is mounted here. */
export function SearchHost() {
  const isAuthenticated = useAuth((s) => s.isAuthenticated);
  const state = useStore(searchDialogs);
  const openSearchHere = useOpenSearch();

  useEffect(() => {
    if (!isAuthenticated) {
      closeSearchDialogs();
      return;
    }
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isSearchShortcut(event) || event.repeat) return;
      event.preventDefault();
      if (searchDialogs.getState().open === 'search') closeSearchDialogs();
      else openSearchHere();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [isAuthenticated, openSearchHere]);

  if (!isAuthenticated || state.open === null) return null;
  return (
    <Suspense fallback={null}>
      {state.open === 'search' ? (
        <SearchDialog scope={state.scope} onClose={closeSearchDialogs} />
      ) : (
        <NewChatDialog onClose={closeSearchDialogs} />
      )}
    </Suspense>
  );
}
