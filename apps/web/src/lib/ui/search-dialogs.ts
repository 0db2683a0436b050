import { createStore } from 'zustand/vanilla';

// Which app-wide search dialog is open: the search (header button, Ctrl/Cmd+K) or New Chat (the chat list's
// button). Shared so any screen can open one without importing the search feature; the app mounts them.

export interface SearchScope {
  chat_id: string;
  name: string;
}

export type SearchDialogState =
  | { open: null }
  | { open: 'search'; scope: SearchScope | null }
  | { open: 'new-chat' };

export const searchDialogs = createStore<SearchDialogState>()(() => ({ open: null }));

export const openSearch = (scope: SearchScope | null = null) =>
  searchDialogs.setState({ open: 'search', scope }, true);
export const openNewChat = () => searchDialogs.setState({ open: 'new-chat' }, true);
export const closeSearchDialogs = () => searchDialogs.setState({ open: null }, true);
