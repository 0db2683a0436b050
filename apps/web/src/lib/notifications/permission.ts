import { useSyncExternalStore } from 'react';

// The browser's permission to show notifications, as the notification prompt and Settings both read it. It is
// asked for only from a click: browsers count a prompt no gesture asked for against the site (Chrome turns later
// ones into a quiet icon), and a person who has not clicked anything has no reason to say yes.

export type NotificationPermissionState = NotificationPermission | 'unsupported';

const supported = () => typeof window !== 'undefined' && 'Notification' in window;
const read = (): NotificationPermissionState => (supported() ? Notification.permission : 'unsupported');

const listeners = new Set<() => void>();
const changed = () => {
  for (const listener of listeners) listener();
};
let watching = false;

/** The browser's own settings can change it while the page is open: its change event says so where there is one. */
function watch() {
  if (watching || !supported()) return;
  watching = true;
  navigator.permissions
    ?.query({ name: 'notifications' })
    .then((status) => status.addEventListener('change', changed))
    .catch(() => undefined);
  // And coming back to the tab from those settings reads it again.
  document.addEventListener('visibilitychange', changed);
}

const subscribe = (listener: () => void) => {
  watch();
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** 'granted', 'denied', 'default' (not asked yet) or 'unsupported' (no Notification API here). */
export const useNotificationPermission = (): NotificationPermissionState =>
  useSyncExternalStore(subscribe, read, () => 'unsupported');

/**
 * Asks the browser for the permission. Call it from a click handler only, before any await: the browser
 * lets a prompt through only while the click's activation lasts.
 */
export async function requestNotificationPermission(): Promise<NotificationPermissionState> {
  if (!supported() || Notification.permission !== 'default') return read();
  await Notification.requestPermission().catch(() => undefined);
  changed();
  return read();
}
