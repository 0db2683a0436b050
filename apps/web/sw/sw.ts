// Parley's service worker. It keeps the app shell (index.html and every built file, listed by the build) so
// Parley installs as an app and opens without a network, and it shows Web Push notifications and
// opens the chat when one is clicked. The API, sockets and media always go to the network.
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every page of the single-page app is index.html; the server's own paths are never answered from here.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [/^\/api\//, /^\/ws\//, /^\/media\//, /^\/dev\//, /^\/healthz/, /^\/readyz/],
  }),
);

// A new version takes over at once: the pages load their files from the new precache on the next navigation.
self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

interface PushPayload {
  title?: string;
  body?: string;
  chatroom_id?: string;
  url?: string;
  tag?: string;
  icon?: string;
}

/** The server's payload: {title, body, chatroom_id, url, tag, icon}. */
function readPayload(event: PushEvent): PushPayload | null {
  try {
    return event.data ? (event.data.json() as PushPayload) : null;
  } catch {
    return null;
  }
}

/** Only paths of this app are opened, whatever a payload says. */
function chatUrl(payload: PushPayload | null): string {
  const url = new URL(typeof payload?.url === 'string' ? payload.url : '/chats', self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL('/chats', self.location.origin).href;
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    // The server always sends a title, in its reader's language; the worker has no catalogs, so without one it
    // shows the app's name, which reads the same in every language.
    self.registration.showNotification(payload?.title || 'Parley', {
      body: payload?.body || '',
      // One notification per chat: a newer message replaces the older one.
      tag: payload?.tag || payload?.chatroom_id || 'parley',
      // `renotify` is not in TypeScript's NotificationOptions yet; browsers read it.
      ...{ renotify: true },
      icon: payload?.icon || '/icons/icon-192.png',
      data: { url: chatUrl(payload) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target: string = event.notification.data?.url || chatUrl(null);
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const same = windows.find((w) => w.url === target);
      if (same) return same.focus();
      const any = windows.find((w) => new URL(w.url).origin === self.location.origin);
      if (any) {
        const focused = await any.focus();
        // navigate() works on windows this worker controls; otherwise a new window opens the chat.
        const moved = await focused.navigate(target).catch(() => null);
        if (moved) return moved;
      }
      return self.clients.openWindow(target);
    })(),
  );
});
