// Parley's service worker: it only shows Web Push notifications (issue 5) and opens the chat when one is
// clicked. No caching: the app always loads from the network.

self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** The server's payload: {title, body, chatroom_id, url, tag, icon}. */
function readPayload(event) {
  try {
    return event.data ? event.data.json() : null;
  } catch {
    return null;
  }
}

/** Only paths of this app are opened, whatever a payload says. */
function chatUrl(payload) {
  const url = new URL(typeof payload?.url === 'string' ? payload.url : '/chats', self.location.origin);
  return url.origin === self.location.origin ? url.href : new URL('/chats', self.location.origin).href;
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload?.title || 'New message', {
      body: payload?.body || '',
      // One notification per chat: a newer message replaces the older one.
      tag: payload?.tag || payload?.chatroom_id || 'parley',
      renotify: true,
      icon: payload?.icon || '/favicon.svg',
      data: { url: chatUrl(payload) },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = event.notification.data?.url || chatUrl(null);
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
