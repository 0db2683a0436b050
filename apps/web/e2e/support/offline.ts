import { expect, type Page } from '@playwright/test';

// What a journey without a server needs to know first: that the service worker serves the app, and that the
// room's copy is saved on the device.

/** Waits until the service worker is active and controls the page (after its clients.claim). */
export async function controlledByServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null))
    .toBe('activated');
}

/**
 * Whether the stored query cache holds `text` in the chat's newest page (the room's own copy: the chat list's
 * preview of the same message is stored sooner, and a reload before the page's turn would find no message).
 */
export const roomCacheHolds = (page: Page, userId: number, chatId: string, text: string) =>
  page.evaluate(
    ({ key, chatId, text }) =>
      new Promise<boolean>((resolve) => {
        const open = indexedDB.open('parley-query-cache');
        open.onerror = () => resolve(false);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('accounts')) return resolve(false);
          const get = db.transaction('accounts').objectStore('accounts').get(key);
          get.onsuccess = () => {
            if (typeof get.result?.state !== 'string') return resolve(false);
            const { queries } = JSON.parse(get.result.state) as {
              queries: { queryKey: unknown[]; state: { data?: unknown } }[];
            };
            const newest = queries.find(
              (q) => JSON.stringify(q.queryKey) === JSON.stringify(['chats', 'messages', chatId]),
            );
            const data = newest?.state.data;
            resolve(Array.isArray(data) && data.some((m: { body?: string }) => m.body === text));
          };
          get.onerror = () => resolve(false);
        };
      }),
    { key: `user:${userId}`, chatId, text },
  );
