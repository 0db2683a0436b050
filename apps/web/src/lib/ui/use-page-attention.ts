import { useSyncExternalStore } from 'react';

// Whether the reader has the page before their eyes: what decides that arriving messages are read (a room's,
// a thread's), not merely delivered.

const subscribeVisibility = (onChange: () => void) => {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
};

/** Whether the page is on screen (not a background tab or a minimised window). */
export const useDocumentVisible = (): boolean =>
  useSyncExternalStore(
    subscribeVisibility,
    () => document.visibilityState === 'visible',
    () => true,
  );

const subscribeFocus = (onChange: () => void) => {
  window.addEventListener('focus', onChange);
  window.addEventListener('blur', onChange);
  return () => {
    window.removeEventListener('focus', onChange);
    window.removeEventListener('blur', onChange);
  };
};

/** Whether the window has the focus (a visible window behind another one has not). */
export const useWindowFocused = (): boolean =>
  useSyncExternalStore(
    subscribeFocus,
    () => document.hasFocus(),
    () => true,
  );

/** Whether the page is on screen in the focused window: what it shows is being read. */
export const usePageAttended = (): boolean => {
  const visible = useDocumentVisible();
  const focused = useWindowFocused();
  return visible && focused;
};
