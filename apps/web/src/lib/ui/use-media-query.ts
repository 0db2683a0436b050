import { useSyncExternalStore } from 'react';

/** Whether a media query matches now, re-rendering when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const media = window.matchMedia(query);
      media.addEventListener('change', onChange);
      return () => media.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** From 1024 px wide the chat list and the open chat sit side by side. */
export const TWO_PANE_QUERY = '(min-width: 1024px)';

/** From 1280 px an open thread stands beside its room; narrower, it covers the room. */
export const THREAD_BESIDE_QUERY = '(min-width: 1280px)';
