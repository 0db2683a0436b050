import { OFFLINE_TEXT } from '@parley/protocol';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { controlledByServiceWorker, roomCacheHolds } from './support/offline';
import { groupChat, type Person, type PersonOptions, peoplePerTest, privateChat } from './support/people';

// Threads without a network: a reply typed in a thread's pane while offline waits in the outbox through a
// reload, then lands once, in its thread; a pane open through a drop catches up on the replies it missed.

const person = peoplePerTest();
/** The thread beside its room. */
const wide: PersonOptions = { viewport: { width: 1280, height: 800 } };
/** A page loading from scratch on a busy machine: a longer ceiling. */
const loading = { timeout: 60_000 };

const timeline = (page: Page) => page.getByRole('region', { name: 'Messages' });
const pane = (page: Page) => page.getByRole('complementary', { name: 'Thread' });
const paneComposer = (page: Page) => pane(page).getByRole('textbox', { name: 'Message' });
/** A reply in the pane, stored (its id) or pending (its client_id, no id yet). */
const stored = (page: Page, text: string) =>
  pane(page).locator('[data-message-id]').filter({ hasText: text });
const pending = (page: Page, text: string) =>
  pane(page).locator('[data-client-id]:not([data-message-id])').filter({ hasText: text });
const offlineBar = (page: Page) => page.getByRole('status').filter({ hasText: OFFLINE_TEXT.bar });

/** The room's socket is open: its header says so in a group, and says nothing in a private chat. */
const connected = (page: Page) =>
  expect(page.locator('[data-status]:not([data-status="connected"])')).toHaveCount(0, loading);

async function openRoom(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('textbox', { name: 'Message' }).first()).toBeVisible(loading);
  await connected(page);
}

/**
 * Ada and Grace in a private chat or a group (`kind`), Ada's room open at 1280 px with her message `rootText`
 * and the thread under it open beside the room, at the thread's address.
 */
async function threadOpened(
  browser: Browser,
  request: APIRequestContext,
  kind: 'chats' | 'groups',
  rootText: string,
) {
  const ada = await person(browser, request, 'ada', wide);
  const grace = await person(browser, request, 'grace', wide);
  const chatId =
    kind === 'chats'
      ? await privateChat(request, ada, grace)
      : await groupChat(request, ada, `Trip ${Date.now().toString(36)}`, [grace]);
  const roomPath = `/${kind}/${chatId}`;
  await openRoom(ada.page, roomPath);
  const box = ada.page.getByRole('textbox', { name: 'Message' });
  await box.fill(rootText);
  await box.press('Enter');
  const root = timeline(ada.page).locator('[data-message-id]').filter({ hasText: rootText });
  await expect(root).toHaveCount(1);
  const rootId = Number(await root.getAttribute('data-message-id'));
  await openRoom(ada.page, `${roomPath}/thread/${rootId}`);
  await expect(pane(ada.page).getByText(rootText)).toBeVisible();
  return { ada, grace, chatId, rootId, threadPath: `${roomPath}/thread/${rootId}` };
}

async function reply(page: Page, text: string) {
  await paneComposer(page).fill(text);
  await paneComposer(page).press('Enter');
  await expect(paneComposer(page)).toHaveValue('');
}

/** The thread's replies as the server has stored them, read by `reader`. */
async function storedReplies(request: APIRequestContext, reader: Person, chatId: string, rootId: number) {
  const res = await request.get(`/api/chats/${chatId}/messages/${rootId}/thread/`, {
    headers: { Authorization: `Bearer ${reader.token}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()).results as { body: string }[]).map((m) => m.body);
}

test('a thread reply typed offline waits through a reload, then lands once, in its thread', async ({
  browser,
  request,
}) => {
  test.slow();
  const { ada, grace, chatId, rootId, threadPath } = await threadOpened(
    browser,
    request,
    'chats',
    'Who brings the maps?',
  );
  await controlledByServiceWorker(ada.page);
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('No replies yet');
  // What the room last loaded is kept, so it opens offline.
  await expect.poll(() => roomCacheHolds(ada.page, ada.user.id, chatId, 'Who brings the maps?')).toBe(true);

  // Every time the reply is written on a socket, through the reload: once is the only right count.
  const text = 'I can bring the paper ones';
  let writes = 0;
  ada.page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"chat_message"') && payload.includes(text))
        writes++;
    }),
  );

  await ada.context.setOffline(true);
  await expect(offlineBar(ada.page)).toBeVisible();
  await reply(ada.page, text);
  await expect(pending(ada.page, text).getByRole('img', { name: 'Sending' })).toBeVisible();
  await expect(pending(ada.page, text)).toContainText(OFFLINE_TEXT.waiting);
  // It is the thread's: the room's own list never shows it, pending or not.
  await expect(timeline(ada.page).getByText(text)).toHaveCount(0);

  // The tab reloads while offline, on the thread's address: the reply comes back in its pane, from the outbox.
  await ada.page.reload();
  await expect(offlineBar(ada.page)).toBeVisible(loading);
  await expect(pending(ada.page, text).getByRole('img', { name: 'Sending' })).toBeVisible(loading);
  await expect(timeline(ada.page).getByText(text)).toHaveCount(0);
  expect(await storedReplies(request, grace, chatId, rootId)).toEqual([]);

  // Online again: the room's socket opens, the pane reads its thread and sends the reply, stored once.
  await ada.context.setOffline(false);
  await expect(offlineBar(ada.page)).toHaveCount(0);
  await expect(stored(ada.page, text)).toHaveCount(1, loading);
  await expect(pending(ada.page, text)).toHaveCount(0);
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('1 reply');
  await expect.poll(() => storedReplies(request, grace, chatId, rootId)).toEqual([text]);

  // Grace sees it once in the thread, and the root's count in the room.
  await openRoom(grace.page, threadPath);
  await expect(stored(grace.page, text)).toHaveCount(1);
  await expect(timeline(grace.page).locator('[data-thread-root]')).toContainText('1 reply');

  // Nothing is left to send: after another reload the reply is there once and nothing waits.
  await ada.page.reload();
  await expect(stored(ada.page, text)).toHaveCount(1, loading);
  await expect(pane(ada.page).locator('[data-client-id]:not([data-message-id])')).toHaveCount(0);
  await connected(ada.page);
  expect(await storedReplies(request, grace, chatId, rootId)).toEqual([text]);
  expect(writes).toBe(1);
});

test('a thread open through a drop shows the replies and the count it missed once back online', async ({
  browser,
  request,
}) => {
  test.slow();
  const { ada, grace, threadPath } = await threadOpened(browser, request, 'groups', 'Lunch at noon?');
  await reply(ada.page, 'Or at one');
  await expect(stored(ada.page, 'Or at one')).toHaveCount(1);
  await openRoom(grace.page, threadPath);
  await expect(stored(grace.page, 'Or at one')).toHaveCount(1);

  // Ada's network drops with the pane open; Grace answers in the thread meanwhile, on her own socket.
  await ada.context.setOffline(true);
  await expect(offlineBar(ada.page)).toBeVisible();
  await reply(grace.page, 'One is better');
  await expect(stored(grace.page, 'One is better')).toHaveCount(1);
  await expect(pane(grace.page).getByTestId('thread-reply-count')).toHaveText('2 replies');
  await expect(stored(ada.page, 'One is better')).toHaveCount(0);
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('1 reply');

  // Back online, the pane reads its thread again: the missed reply, once, and the root's count.
  await ada.context.setOffline(false);
  await expect(offlineBar(ada.page)).toHaveCount(0);
  await expect(stored(ada.page, 'One is better')).toHaveCount(1, loading);
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('2 replies');
  await expect(timeline(ada.page).locator('[data-thread-root]')).toContainText('2 replies');
  const order = await pane(ada.page).locator('[data-message-id]').allInnerTexts();
  const at = (t: string) => order.findIndex((x) => x.includes(t));
  expect(at('Or at one')).toBeLessThan(at('One is better'));
});
