import { expect, type Locator, type Page, test } from '@playwright/test';
import { expectAxeCleanLightAndDark } from './support/axe';
import { groupChat, peoplePerTest, privateChat } from './support/people';
import { loading, openRoom, timeline } from './support/room';

// A group's admin makes an incoming webhook in the group's settings and sees its address once; a POST to it
// from outside the browser (as curl would) shows in a member's open room live, from the hook's name with an
// 'App' badge. Revoking it (after a confirmation) makes the address answer 404. axe is clean in light and dark
// at 1280 and 390 px.

const person = peoplePerTest();

/** `shown` in view on `page` at this width, axe clean in both themes, and a screenshot in each. */
async function checkAt(page: Page, shown: Locator, width: number, path: (theme: string) => string) {
  await page.setViewportSize({ width, height: 800 });
  // A new width can swap the layout (two panes or one) and draw the room again under the scroll: it is tried
  // again until the message stays in view.
  await expect(async () => {
    await shown.scrollIntoViewIfNeeded({ timeout: 5_000 });
    await expect(shown).toBeInViewport({ timeout: 5_000 });
  }).toPass(loading);
  await expectAxeCleanLightAndDark(page);
  await page.screenshot({ path: path('light'), animations: 'disabled' });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: path('dark'), animations: 'disabled' });
  await page.emulateMedia({ colorScheme: 'light' });
}

test('an admin makes a webhook, a POST to it shows live in the room with the App badge, revoking ends it', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await groupChat(request, ada, 'Deploys', [grace]);

  const page = ada.page;
  await page.goto(`/groups/${chatId}/settings`);
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Webhooks' }) });
  await expect(card.getByText('No webhooks yet.')).toBeVisible(loading);
  const form = page.getByRole('form', { name: 'New webhook' });
  const create = async (name: string) => {
    await form.getByLabel('Webhook name').fill(name);
    await form.getByRole('button', { name: 'Create webhook' }).click();
    await expect(address).toHaveText(/\/hooks\/[0-9A-Za-z]{43}$/);
    await expect(card.getByRole('listitem').filter({ hasText: name })).toBeVisible();
    return (await address.textContent()) ?? '';
  };
  const address = page.getByLabel('Webhook URL', { exact: true });
  const url = await create('CI');
  await checkAt(page, address, 1280, (theme) => info.outputPath(`address-wide-${theme}.png`));

  await openRoom(grace.page, `/groups/${chatId}`);
  const hookPath = new URL(url).pathname;
  const posted = await request.post(hookPath, {
    data: { text: 'Build 42 passed', username: 'Ada', icon_url: 'https://example.com/a.png' },
  });
  expect(posted.status(), await posted.text()).toBe(200);
  expect(await posted.text()).toBe('ok');
  const message = timeline(grace.page).locator('[data-message-id]').filter({ hasText: 'Build 42 passed' });
  await expect(message).toBeVisible();
  await expect(message.getByText('CI', { exact: true })).toBeVisible();
  await expect(message.getByText('App', { exact: true })).toBeVisible();
  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const)
    await checkAt(grace.page, message, width, (theme) => info.outputPath(`message-${name}-${theme}.png`));

  // On a phone: the address of a second hook, shown once too.
  await page.setViewportSize({ width: 390, height: 800 });
  await page.reload();
  await create('Alerts');
  await checkAt(page, address, 390, (theme) => info.outputPath(`address-narrow-${theme}.png`));
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(address).toHaveCount(0);

  await card.getByRole('button', { name: 'Revoke CI' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('stops working at once');
  await dialog.getByRole('button', { name: 'Revoke webhook' }).click();
  await expect(card.getByRole('listitem').filter({ hasText: 'CI' })).toHaveCount(0);
  await expect(card.getByRole('listitem').filter({ hasText: 'Alerts' })).toBeVisible();
  expect((await request.post(hookPath, { data: { text: 'too late' } })).status()).toBe(404);
});

test("either person of a private chat manages its webhooks; a group's plain member sees none", async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  const groupId = await groupChat(request, ada, 'Ops', [grace]);

  const page = grace.page;
  await page.goto(`/chats/${chatId}/settings`);
  const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Webhooks' }) });
  await expect(card.getByText('No webhooks yet.')).toBeVisible(loading);
  await card.getByLabel('Webhook name').fill('Alerts');
  await card.getByRole('button', { name: 'Create webhook' }).click();
  const address = page.getByLabel('Webhook URL', { exact: true });
  await expect(address).toHaveText(/\/hooks\/[0-9A-Za-z]{43}$/);
  await checkAt(page, address, 1280, (theme) => info.outputPath(`private-wide-${theme}.png`));
  // In a private chat the hook's message names it too, with the badge.
  const posted = await request.post(new URL((await address.textContent()) ?? '').pathname, {
    data: { body: 'Disk almost full' },
  });
  expect(posted.status()).toBe(200);
  await openRoom(ada.page, `/chats/${chatId}`);
  const message = timeline(ada.page).locator('[data-message-id]').filter({ hasText: 'Disk almost full' });
  await expect(message.getByText('App', { exact: true })).toBeVisible();
  await expect(message.getByText('Alerts', { exact: true })).toBeVisible();

  await page.goto(`/groups/${groupId}/settings`);
  await expect(page.getByRole('heading', { name: 'Group Chat Settings' })).toBeVisible(loading);
  await expect(page.getByRole('heading', { name: 'Webhooks' })).toHaveCount(0);
});
