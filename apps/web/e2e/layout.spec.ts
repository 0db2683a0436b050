import { pngOf } from '@parley/fixtures';
import { expect, type Page, test } from '@playwright/test';
import { fullName, type Person, peoplePerTest, privateChat } from './support/people';

// The layout and theme: two panes from 1024 px (the chat list beside the open chat), one pane on a
// phone; the tab title and icon carry the unread total; a theme chosen in Settings survives a reload.
const person = peoplePerTest();
const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const chatList = (page: Page) => page.getByRole('complementary', { name: 'Chat list' });
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(messages(page).locator('[data-message-id]').filter({ hasText: text })).toBeVisible();
}

async function group(request: Parameters<typeof privateChat>[0], admin: Person, name: string) {
  const res = await request.post('/api/chats/group/new/', {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { group_name: name },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()).chat_id as string;
}

test('two panes at 1280 px: the list stays beside the open chat, routes and the back button as before', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada', { viewport: WIDE });
  const grace = await person(browser, request, 'grace', { viewport: WIDE });
  const chatId = await privateChat(request, ada, grace);
  const groupId = await group(request, ada, 'Two pane club');
  const { page } = ada;

  await page.goto('/chats');
  await expect(chatList(page).getByRole('heading', { name: 'My Chats' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Select a chat' })).toBeVisible();
  await expect(page).toHaveTitle('My Chats · Parley');

  // Opening a chat keeps the list; the room takes the rest of the width and the cursor is in the composer.
  await chatList(page)
    .getByRole('link', { name: new RegExp(fullName(grace)) })
    .click();
  await expect(page).toHaveURL(`/chats/${chatId}`);
  await expect(composer(page)).toBeFocused();
  await expect(chatList(page)).toBeVisible();
  await expect(page).toHaveTitle(`${fullName(grace)} · Parley`);
  await expect(chatList(page).getByRole('link', { name: new RegExp(fullName(grace)) })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const pane = await page.getByTestId('chat-pane').boundingBox();
  expect(pane!.width).toBeGreaterThan(800);
  await send(page, 'Hello from the wide screen');
  await expect(chatList(page).getByRole('link', { name: new RegExp(fullName(grace)) })).toContainText(
    'Hello from the wide screen',
  );

  // The group and its settings open in the same pane; the header's Chats item stays current on /groups/*.
  await chatList(page)
    .getByRole('link', { name: /Two pane club/ })
    .click();
  await expect(page).toHaveURL(`/groups/${groupId}`);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Chats/ }),
  ).toHaveAttribute('aria-current', 'page');
  await page.getByRole('link', { name: 'Group Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Manage Chat Room' })).toBeVisible();
  await expect(chatList(page)).toBeVisible();

  // Alt+↑ / Alt+↓ move through the list's order (the chat with Grace has the newest message, then the group).
  await page.keyboard.press('Alt+ArrowUp');
  await expect(page).toHaveURL(`/chats/${chatId}`);
  await page.keyboard.press('Alt+ArrowDown');
  await expect(page).toHaveURL(`/groups/${groupId}`);

  // The back button walks the same history as before.
  await page.goBack();
  await expect(page).toHaveURL(`/chats/${chatId}`);
  await page.goBack();
  await expect(page).toHaveURL(`/groups/${groupId}/settings`);
  await expect(chatList(page)).toBeVisible();

  // Grace, elsewhere in the app, sees the unread total in the tab title.
  await grace.page.goto('/profile');
  await expect(grace.page).toHaveTitle('(1) My Profile · Parley');
  const icon = await grace.page.locator('link[rel="icon"]').getAttribute('href');
  expect(icon).toMatch(/^data:image\/png;base64,/);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(grace.page).toHaveTitle(`${fullName(ada)} · Parley`);
  await expect(grace.page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
});

test('one pane at 390 px: the list is a page of its own, the room another', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada', { viewport: PHONE });
  const grace = await person(browser, request, 'grace', { viewport: PHONE });
  const chatId = await privateChat(request, ada, grace);
  const { page } = ada;

  await page.goto('/chats');
  await expect(page.getByRole('heading', { level: 1, name: 'My Chats' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Select a chat' })).toHaveCount(0);
  await expect(chatList(page)).toHaveCount(0);
  await page.getByRole('link', { name: new RegExp(fullName(grace)) }).click();
  await expect(page).toHaveURL(`/chats/${chatId}`);
  await expect(page.getByRole('heading', { name: 'My Chats' })).toHaveCount(0);
  await expect(composer(page)).toBeVisible();
  await page.getByRole('link', { name: 'Back to chats' }).click();
  await expect(page.getByRole('heading', { name: 'My Chats' })).toBeVisible();
});

test('a files-only message previews its files in the list; after an image the room rests at the bottom', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada', { viewport: WIDE });
  const grace = await person(browser, request, 'grace', { viewport: WIDE });
  const chatId = await privateChat(request, ada, grace);
  const { page } = ada;
  await page.goto(`/chats/${chatId}`);
  // Enough text first that the list scrolls.
  for (let i = 1; i <= 12; i++) await send(page, `Line ${i} before the picture`);
  await page.locator('input[type="file"]').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: pngOf(800, 900),
  });
  await page.getByRole('button', { name: 'Send message' }).click();
  const image = messages(page).locator('[data-message-id] img').last();
  await expect(image).toBeVisible();
  await expect
    .poll(async () =>
      messages(page).evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight)),
    )
    .toBeLessThanOrEqual(2);
  await expect(chatList(page).getByRole('link', { name: new RegExp(fullName(grace)) })).toContainText(
    '📎 photo.png',
  );
});

test('the theme chosen in Settings is applied at once and kept after a reload', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada', { viewport: WIDE });
  const { page } = ada;
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/settings');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/dark/);
  await expect(page.getByRole('radio', { name: 'System' })).toBeChecked();
  // The radios are drawn as cards: the person clicks the card's label.
  await page.getByText('Dark', { exact: true }).click();
  await expect(html).toHaveClass(/dark/);
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(await background()).not.toBe('rgb(248, 250, 252)');

  await page.reload();
  // Dark from the first paint: the class is there before the app's code runs.
  expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();

  // System follows the device again.
  await page.getByText('System', { exact: true }).click();
  await expect(html).not.toHaveClass(/dark/);
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveClass(/dark/);
});

test('a room opened from its address: its detail and newest page asked for once, by the page before the app', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada', { viewport: PHONE });
  const grace = await person(browser, request, 'grace', { viewport: PHONE });
  const chatId = await privateChat(request, ada, grace);
  const { page } = ada;
  await page.goto(`/chats/${chatId}`);
  await send(page, 'Said before the reload');

  const asked: string[] = [];
  page.on('request', (r) => {
    const { pathname, search } = new URL(r.url());
    if (pathname.startsWith(`/api/chats/${chatId}/`)) asked.push(pathname + search);
  });
  const refused: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) refused.push(m.text());
  });
  await page.reload();
  await expect(messages(page).getByText('Said before the reload')).toBeVisible();
  // index.html's own script asked (the CSP allows it by its hash), and the room took both answers.
  expect(
    await page.evaluate(
      () => (window as unknown as { __parleyEarlyRequests?: unknown[] }).__parleyEarlyRequests,
    ),
  ).toEqual([]);
  expect(asked.filter((u) => u === `/api/chats/${chatId}/`)).toHaveLength(1);
  expect(asked.filter((u) => u === `/api/chats/${chatId}/messages/?limit=50`)).toHaveLength(1);
  expect(refused).toEqual([]);
});
