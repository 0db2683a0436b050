import type { PushSubscribePayload, VapidPublicKeyResponse } from '@parley/protocol';
import { useEffect } from 'react';
import { api } from '../../lib/http/api-client';

// Web Push: while the Push Notifications switch is on and the browser allows notifications, this browser has a
// service worker and a push subscription the server knows, so a message reaches the person with every Parley tab
// closed. Switched off, the subscription is dropped on both sides. The server ties a subscription to the session
// that posted it, so signing out ends it there too.

const SERVICE_WORKER_URL = '/sw.js';

export const pushSupported = (): boolean =>
  typeof window !== 'undefined' &&
  'serviceWorker' in navigator &&
  'PushManager' in window &&
  'Notification' in window &&
  window.isSecureContext;

const toBytes = (base64url: string): Uint8Array<ArrayBuffer> => {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

const sameBytes = (a: ArrayBuffer | null | undefined, b: Uint8Array) =>
  !!a && a.byteLength === b.byteLength && new Uint8Array(a).every((v, i) => v === b[i]);

/** POST /api/push/subscriptions/ with this browser's subscription (the server keeps one row per endpoint). */
const postSubscription = (subscription: PushSubscription) => {
  const { endpoint, keys } = subscription.toJSON();
  const body: PushSubscribePayload = {
    endpoint: endpoint ?? subscription.endpoint,
    keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
  };
  return api.post<unknown>('/push/subscriptions/', body);
};

/** DELETE /api/push/subscriptions/ for this browser's endpoint. */
const deleteSubscription = (endpoint: string) =>
  api.request<unknown>('/push/subscriptions/', { method: 'DELETE', body: { endpoint } });

async function subscribe(): Promise<void> {
  // The permission is asked for by a click (the notification prompt, Settings), never from here.
  if (Notification.permission !== 'granted') return;
  await navigator.serviceWorker.register(SERVICE_WORKER_URL);
  const registration = await navigator.serviceWorker.ready;
  const { public_key } = await api.get<VapidPublicKeyResponse>('/push/vapid-public-key/');
  const serverKey = toBytes(public_key);
  let subscription = await registration.pushManager.getSubscription();
  // A subscription made for other server keys (a reinstalled server) can no longer be pushed to.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, serverKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: serverKey,
  });
  // Posted on every start too: it binds the browser to the current session and survives key rotation.
  await postSubscription(subscription);
}

async function unsubscribe(): Promise<void> {
  const registration = await navigator.serviceWorker.getRegistration(SERVICE_WORKER_URL);
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await deleteSubscription(subscription.endpoint).catch(() => undefined);
  await subscription.unsubscribe();
}

let queue: Promise<void> = Promise.resolve();

/** Brings this browser in line with the switch; calls run one after another so quick toggles end right. */
export function syncPushSubscription(enabled: boolean): Promise<void> {
  if (!pushSupported()) return Promise.resolve();
  // Push is an extra on top of the notification socket and the badge: a browser that refuses it (permission
  // denied, no push service) still gets everything else.
  queue = queue.then(() => (enabled ? subscribe() : unsubscribe())).catch(() => undefined);
  return queue;
}

/**
 * Follows the Push Notifications switch and the browser's permission (undefined while the settings load: nothing
 * happens yet).
 */
export function usePushSubscription(enabled: boolean | undefined): void {
  useEffect(() => {
    if (enabled !== undefined) void syncPushSubscription(enabled);
  }, [enabled]);
}
