import { useEffect } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import { t } from '../i18n/i18n';

// The tab's title: the screen names itself here (usePageTitle) and the app writes document.title once, with
// the unread total in front ('(3) Ada Lovelace · Parley'). One writer, so screens never race for <title>.

interface TitleState {
  /** The screen's name; null for Parley's own pages without one. */
  name: string | null;
  /** A page of another brand (the landing page): its title as it is, without Parley's name or unread count. */
  raw: boolean;
}

export const titleStore = createStore<TitleState>()(() => ({ name: null, raw: false }));

/** Names the tab while the calling screen is shown. */
export function usePageTitle(name: string | null, options: { raw?: boolean } = {}) {
  const raw = options.raw ?? false;
  useEffect(() => {
    titleStore.setState({ name, raw });
    return () => {
      const now = titleStore.getState();
      if (now.name === name && now.raw === raw) titleStore.setState({ name: null, raw: false });
    };
  }, [name, raw]);
}

export const usePageTitleState = () => useStore(titleStore);

/** '(3) Ada Lovelace · Parley' in the reader's language; '(99+)' past 99; no count when nothing is unread. */
export function documentTitle(state: TitleState, unread: number): string {
  if (state.raw && state.name) return state.name;
  const base = state.name ? t('general.title.page', { name: state.name }) : t('general.title.app');
  if (unread <= 0) return base;
  return t('general.title.unread', { count: unread > 99 ? '99+' : String(unread), title: base });
}
