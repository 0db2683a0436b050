import { OFFLINE_TEXT } from '@parley/protocol';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { controlledByServiceWorker, roomCacheHolds } from './support/offline';
import { peoplePerTest, privateChat } from './support/people';

// Installable and offline-safe: the manifest and the service worker make Parley an app that opens
// without a network; what is typed offline waits in the outbox (through a reload) and lands once, in order.

const person = peoplePerTest();

const composer = (page: Page) => page.getByPlaceholder('Type your message...');
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
/** A message, stored (its id) or pending (its client_id). */
const bubble = (page: Page, text: string) =>
  messages(page).locator('[data-message-id], [data-client-id]').filter({ hasText: text });
const offlineBar = (page: Page) => page.getByRole('status').filter({ hasText: OFFLINE_TEXT.bar });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(composer(page)).toHaveValue('');
}

async function fetchOk(request: APIRequestContext, url: string, type: RegExp) {
  const res = await request.get(url);
  expect(res.status(), url).toBe(200);
  expect(res.headers()['content-type'], url).toMatch(type);
  return res;
}

test('Parley installs as an app: manifest, icons and an active service worker; the shell opens offline', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const page = ada.page;
  await page.goto('/chats');

  const manifestUrl = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(manifestUrl).toBeTruthy();
  const manifest = await (await fetchOk(request, manifestUrl!, /manifest\+json|json/)).json();
  expect(manifest).toMatchObject({
    name: 'Parley',
    short_name: 'Parley',
    display: 'standalone',
    start_url: '/chats',
    theme_color: '#4f46e5',
  });
  const icons = manifest.icons as { src: string; sizes: string; purpose?: string }[];
  for (const size of ['192x192', '512x512']) expect(icons.some((i) => i.sizes === size)).toBe(true);
  expect(icons.some((i) => i.purpose === 'maskable')).toBe(true);
  for (const icon of icons) await fetchOk(request, icon.src, /^image\/png/);
  const appleTouch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
  await fetchOk(request, appleTouch!, /^image\/png/);

  await controlledByServiceWorker(page);
  await expect(page.getByTestId('chat-count')).toBeVisible();

  // No network at all: the browser offline, and anything that still reached for the server refused.
  await ada.context.setOffline(true);
  await ada.context.route('**/*', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(offlineBar(page)).toBeVisible();
  await expect(page.getByTestId('chat-count')).toBeVisible();
  // A page never opened before comes from the same shell.
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  await expect(offlineBar(page)).toBeVisible();

  await ada.context.unroute('**/*');
  await ada.context.setOffline(false);
  await expect(offlineBar(page)).toHaveCount(0);
});

test('messages typed offline wait through a reload, can be cancelled, and land once, in order', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await grace.page.goto(`/chats/${chatId}`);
  await ada.page.goto(`/chats/${chatId}`);
  await controlledByServiceWorker(ada.page);
  await send(ada.page, 'before the drop');
  await expect(bubble(grace.page, 'before the drop')).toHaveCount(1);
  // What the room last loaded is kept, so it opens offline.
  await expect.poll(() => roomCacheHolds(ada.page, ada.user.id, chatId, 'before the drop')).toBe(true);

  await ada.context.setOffline(true);
  await expect(offlineBar(ada.page)).toBeVisible();
  await send(ada.page, 'offline one');
  await send(ada.page, 'offline two');
  await send(ada.page, 'never mind');
  for (const text of ['offline one', 'offline two', 'never mind']) {
    await expect(bubble(ada.page, text).getByRole('img', { name: 'Sending' })).toBeVisible();
  }
  await expect(ada.page.getByText(OFFLINE_TEXT.waiting).first()).toBeVisible();

  // The tab reloads while offline: the room comes back from the cache, the pending messages from the outbox.
  await ada.page.reload();
  await expect(bubble(ada.page, 'before the drop')).toHaveCount(1);
  for (const text of ['offline one', 'offline two', 'never mind']) {
    await expect(bubble(ada.page, text).getByRole('img', { name: 'Sending' })).toBeVisible();
  }
  const pendingOrder = await messages(ada.page).locator('[data-client-id]').allInnerTexts();
  const at = (texts: string[], t: string) => texts.findIndex((x) => x.includes(t));
  expect(at(pendingOrder, 'offline one')).toBeLessThan(at(pendingOrder, 'offline two'));

  await bubble(ada.page, 'never mind').getByRole('button', { name: OFFLINE_TEXT.cancelLabel }).click();
  await expect(bubble(ada.page, 'never mind')).toHaveCount(0);
  await expect(bubble(grace.page, 'offline one')).toHaveCount(0);

  await ada.context.setOffline(false);
  await expect(offlineBar(ada.page)).toHaveCount(0);
  await expect(bubble(grace.page, 'offline one')).toHaveCount(1);
  await expect(bubble(grace.page, 'offline two')).toHaveCount(1);
  const delivered = await messages(grace.page).locator('[data-message-id]').allInnerTexts();
  expect(at(delivered, 'before the drop')).toBeLessThan(at(delivered, 'offline one'));
  expect(at(delivered, 'offline one')).toBeLessThan(at(delivered, 'offline two'));
  await expect(ada.page.getByRole('img', { name: 'Sending' })).toHaveCount(0);

  // Once each, after every reload too: the outbox is empty and the cancelled message never went.
  await ada.page.reload();
  await grace.page.reload();
  for (const page of [ada.page, grace.page]) {
    await expect(bubble(page, 'offline two')).toHaveCount(1);
    await expect(bubble(page, 'offline one')).toHaveCount(1);
    await expect(bubble(page, 'never mind')).toHaveCount(0);
  }
  await expect(ada.page.getByRole('img', { name: 'Sending' })).toHaveCount(0);
});
