import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OFFLINE_TEXT, SOCKET_CLIENT_TEXT } from '@parley/protocol';
import {
  type APIRequestContext,
  type Browser,
  test as base,
  expect,
  type Page,
  type PlaywrightWorkerArgs,
} from '@playwright/test';
import { seriousFindings } from './support/axe';
import { controlledByServiceWorker, roomCacheHolds } from './support/offline';
import { type Person, peoplePerTest, privateChat } from './support/people';
import { freePort, startServer, untilHealthy } from './support/server-process';

// The server away for longer than a restart: a room never gives up reconnecting (capped back-off, at most 30 s
// between tries), sends what waited exactly once when it is back, and a room reloaded meanwhile opens from the
// copy saved on the device instead of an error, recovering by itself. Each test has a server of its own to stop.
// The room's connection states are photographed (test-results/) for a person to look at.

const person = peoplePerTest();

type OwnServer = Awaited<ReturnType<typeof ownServer>>;

/** Each test has a server of its own, stopped for good after it. */
const test = base.extend<{ server: OwnServer }>({
  server: async ({ playwright }, use) => {
    const server = await ownServer(playwright);
    await use(server);
    await server.dispose();
  },
});
// Two people, the server's outage and the axe scans of four screens on a loaded machine.
test.describe.configure({ timeout: 300_000 });

/** How long the server stays away: longer than SPEC's five tries 3 s apart, which gave up after 15 s. */
const OUTAGE_MS = 20_000;

const composer = (page: Page) => page.getByPlaceholder('Type your message...');
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
/** A stored message (its id). */
const stored = (page: Page, text: string) =>
  messages(page).locator('[data-message-id]').filter({ hasText: text });
/** A message still pending (its client_id). */
const pending = (page: Page, text: string) =>
  messages(page).locator('[data-client-id]').filter({ hasText: text });
const strip = (page: Page) => page.getByTestId('connection-strip');
const roomHeader = (page: Page) =>
  page.locator('header').filter({ has: page.getByRole('link', { name: 'Back to chats' }) });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(composer(page)).toHaveValue('');
}

/** A server of the test's own, and an API client for it. */
async function ownServer(playwright: PlaywrightWorkerArgs['playwright']) {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-reconnect-'));
  const request = await playwright.request.newContext({ baseURL });
  const server = {
    process: startServer(port, dataDir),
    baseURL,
    request,
    /** Stops it as an operator would (SIGTERM: sockets closed with 1012), and waits until it has exited. */
    async stop() {
      const exited = new Promise((resolve) => this.process.once('exit', resolve));
      this.process.kill('SIGTERM');
      await exited;
    },
    async start() {
      this.process = startServer(port, dataDir);
      await untilHealthy(request);
    },
    async dispose() {
      this.process.kill('SIGKILL');
      await request.dispose();
    },
  };
  await untilHealthy(request);
  return server;
}

/** Ada (watched at 1280 px) and Grace, signed in on `server`, and their private chat. */
async function twoInAChat(browser: Browser, server: { request: APIRequestContext; baseURL: string }) {
  const { request, baseURL } = server;
  const ada = await person(browser, request, 'ada', { baseURL, viewport: { width: 1280, height: 800 } });
  const grace = await person(browser, request, 'grace', { baseURL });
  return { ada, grace, chatId: await privateChat(request, ada, grace) };
}

/** The messages of `chatId` the server has stored with `body` (the truth: once each, never twice). */
async function storedCount(request: APIRequestContext, who: Person, chatId: string, body: string) {
  const res = await request.get(`/api/chats/${chatId}/messages/?limit=100`, {
    headers: { Authorization: `Bearer ${who.token}` },
  });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { body: string }[]).filter((m) => m.body === body).length;
}

/**
 * The connection strip lies under the room's header, never over it: the header's title is what a point in its
 * middle hits, and the floating offline bar is not shown over the room.
 */
async function headerUncovered(page: Page) {
  const header = roomHeader(page);
  const title = header.getByRole('heading', { level: 1 });
  await expect(title).toBeVisible();
  // A new window size may draw the room again (one pane or two): the boxes are read once it has settled.
  await expect(async () => {
    const headerBox = await header.boundingBox();
    const stripBox = await strip(page).boundingBox();
    expect(headerBox && stripBox).toBeTruthy();
    expect(stripBox!.y).toBeGreaterThanOrEqual(headerBox!.y + headerBox!.height - 1);
  }).toPass({ timeout: 20_000 });
  const hitsTitle = await title.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + Math.min(box.width / 2, 20), box.top + box.height / 2);
    return hit !== null && (el === hit || el.contains(hit));
  });
  expect(hitsTitle, 'the room title is not covered').toBe(true);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_TEXT.bar })).toHaveCount(
    (await strip(page).getAttribute('data-connection')) === 'offline' ? 1 : 0,
  );
}

/** axe at 1280 and 390 px, light and dark, with a photograph of each; the header is checked uncovered in each. */
async function auditEverySize(page: Page, name: string) {
  const dir = test.info().outputPath('screens');
  mkdirSync(dir, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await expect(strip(page)).toBeVisible();
      await headerUncovered(page);
      const found = await seriousFindings(page);
      await page.screenshot({ path: path.join(dir, `${name}-${width}-${colorScheme}.png`) });
      expect(found, `${name} at ${width} px, ${colorScheme}`).toEqual([]);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('the server away for 20 s: the room reconnects by itself and what waited goes, once each', async ({
  browser,
  server,
}) => {
  const { request } = server;
  const { ada, grace, chatId } = await twoInAChat(browser, server);
  await grace.page.goto(`/chats/${chatId}`);
  await ada.page.goto(`/chats/${chatId}`);
  await expect(roomHeader(ada.page).getByText('In this chat')).toBeVisible();
  await send(ada.page, 'before the outage');
  await expect(stored(grace.page, 'before the outage')).toHaveCount(1);

  await server.stop();
  const stoppedAt = Date.now();
  // Honest about it: the next try's time, a way to try at once, and no one shown 'In this chat'.
  await expect(strip(ada.page)).toContainText(/Reconnecting in \d+ s…/);
  await expect(strip(ada.page).getByRole('button', { name: 'Try now' })).toBeVisible();
  await expect(roomHeader(ada.page).getByText('In this chat')).toHaveCount(0);
  await expect(roomHeader(ada.page).getByRole('img', { name: 'Not in this chat' })).toBeVisible();
  await send(ada.page, 'waiting one');
  await send(ada.page, 'waiting two');
  for (const text of ['waiting one', 'waiting two'])
    await expect(pending(ada.page, text).getByText(OFFLINE_TEXT.waiting)).toBeVisible();
  // 'Try now' tries (and fails: the server is away) and the wait starts again.
  await strip(ada.page).getByRole('button', { name: 'Try now' }).click();
  await expect(strip(ada.page)).toContainText(/Reconnecting in \d+ s…/);
  await auditEverySize(ada.page, 'reconnecting');
  // One state, said once: SPEC's 'Connection error' in the strip, not again in the red banner above the composer.
  await expect(strip(ada.page)).toContainText(SOCKET_CLIENT_TEXT.connectionError);
  await expect(
    ada.page.getByRole('alert').filter({ hasText: SOCKET_CLIENT_TEXT.connectionError }),
  ).toHaveCount(0);

  // Still away: SPEC's five tries would have run out by now. Then the server starts again, by then 20 s late.
  await expect(strip(ada.page)).toContainText(/Reconnecting in \d+ s…/);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, OUTAGE_MS - (Date.now() - stoppedAt))));
  await server.start();

  // Nobody touches anything: both rooms come back (at most 30 s between tries), and what waited goes once.
  for (const page of [ada.page, grace.page]) await expect(strip(page)).toHaveCount(0, { timeout: 90_000 });
  for (const text of ['waiting one', 'waiting two']) {
    await expect(stored(grace.page, text)).toHaveCount(1);
    await expect(stored(ada.page, text)).toHaveCount(1);
    await expect(pending(ada.page, text)).toHaveCount(0);
    expect(await storedCount(request, ada, chatId, text)).toBe(1);
  }
  const order = await messages(grace.page).locator('[data-message-id]').allInnerTexts();
  const at = (t: string) => order.findIndex((x) => x.includes(t));
  expect(at('waiting one')).toBeLessThan(at('waiting two'));
  // New messages arrive again, both ways, and presence is back.
  await send(grace.page, 'after the outage');
  await expect(stored(ada.page, 'after the outage')).toHaveCount(1);
  await send(ada.page, 'heard you');
  await expect(stored(grace.page, 'heard you')).toHaveCount(1);
  await expect(roomHeader(ada.page).getByText('In this chat')).toBeVisible();

  // The browser offline: the room says so under its header, where the floating bar covered the title.
  await ada.context.setOffline(true);
  await expect(strip(ada.page)).toHaveAttribute('data-connection', 'offline');
  await expect(strip(ada.page)).toHaveText(OFFLINE_TEXT.bar);
  await auditEverySize(ada.page, 'offline');
  await ada.context.setOffline(false);
  await expect(strip(ada.page)).toHaveCount(0);
  await send(ada.page, 'online again');
  await expect(stored(grace.page, 'online again')).toHaveCount(1);
});

test('a reload while the server is away opens the saved copy, marked, and it recovers by itself', async ({
  browser,
  server,
}) => {
  const { request } = server;
  const { ada, grace, chatId } = await twoInAChat(browser, server);
  await ada.page.goto(`/chats/${chatId}`);
  await controlledByServiceWorker(ada.page);
  await send(ada.page, 'saved on the device');
  await expect(stored(ada.page, 'saved on the device')).toHaveCount(1);
  await expect.poll(() => roomCacheHolds(ada.page, ada.user.id, chatId, 'saved on the device')).toBe(true);

  await server.stop();
  await ada.page.reload();
  // The room, from the copy saved on this device, says so, and retries: no error screen.
  await expect(stored(ada.page, 'saved on the device')).toHaveCount(1);
  await expect(strip(ada.page)).toContainText('Showing the copy saved on this device.');
  await expect(strip(ada.page)).toContainText(/Reconnecting in \d+ s…/);
  await expect(ada.page.getByText('Failed to load chat. Please try again.')).toHaveCount(0);
  await expect(roomHeader(ada.page).getByRole('heading', { level: 1 })).toHaveText(/\S/);
  await send(ada.page, 'typed while away');
  await expect(pending(ada.page, 'typed while away').getByText(OFFLINE_TEXT.waiting)).toBeVisible();
  await auditEverySize(ada.page, 'saved-copy');

  await server.start();
  // By itself: the room reconnects, reads the chat again, and the live conversation goes on.
  await expect(strip(ada.page)).toHaveCount(0, { timeout: 90_000 });
  await expect(stored(ada.page, 'typed while away')).toHaveCount(1);
  expect(await storedCount(request, ada, chatId, 'typed while away')).toBe(1);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(stored(grace.page, 'typed while away')).toHaveCount(1);
  await send(grace.page, 'welcome back');
  await expect(stored(ada.page, 'welcome back')).toHaveCount(1);
});
