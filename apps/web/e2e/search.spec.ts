import { expect, type Page, test } from '@playwright/test';
import { fullName, peoplePerTest, privateChat } from './support/people';

// Search in the browser: Ctrl+K from anywhere finds messages (accents ignored, matched words marked),
// people and chats, keyboard first; the chat list's filter; New Chat finds a person by the start of a name.

const person = peoplePerTest();

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const bubble = (page: Page, text: string) =>
  page.getByRole('region', { name: 'Messages' }).locator('[data-message-id]').filter({ hasText: text });

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(bubble(page, text)).toHaveCount(1);
}

const searchDialog = (page: Page) => page.getByRole('dialog', { name: 'Search' });
const searchBox = (page: Page) => searchDialog(page).getByRole('combobox');
const results = (page: Page) => searchDialog(page).getByRole('listbox', { name: 'Search results' });
const group = (page: Page, name: string) => results(page).getByRole('group', { name, exact: true });

test('Ctrl+K finds a message by a word typed without its accent, marks it, and opens the chat at it', async ({
  browser,
  request,
}, testInfo) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, grace, ada);
  const text = 'Shall we meet at the Café Müller after the talk?';

  await grace.page.goto(`/chats/${chatId}`);
  await send(grace.page, text);
  for (let i = 1; i <= 12; i++) await send(grace.page, `Later line ${i}.\n${'and more\n'.repeat(3)}`);

  const page = ada.page;
  await page.goto('/chats');
  await expect(page.getByRole('heading', { name: 'My Chats' })).toBeVisible();
  await expect(page.getByTestId('chat-count')).toHaveText('1 chat');
  await page.keyboard.press('Control+K');
  await expect(searchDialog(page)).toBeVisible();
  await expect(searchBox(page)).toBeFocused();

  // Blank, it lists the newest chats: a quick switcher.
  await expect(group(page, 'Recent chats').getByRole('option', { name: fullName(grace) })).toBeVisible();

  await searchBox(page).fill('cafe');
  const hit = group(page, 'Messages').getByRole('option').filter({ hasText: 'Müller' });
  await expect(hit).toHaveCount(1);
  await expect(hit.locator('mark')).toHaveText(['Café']);
  await expect(hit).toHaveAttribute('aria-selected', 'true');
  await expect(searchBox(page)).toHaveAttribute(
    'aria-activedescendant',
    (await hit.getAttribute('id')) ?? '',
  );
  // For a person to look at (test-results/): the dialog wide and on a phone.
  await page.screenshot({ path: testInfo.outputPath('search-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath('search-390.png') });
  await page.setViewportSize({ width: 1280, height: 720 });

  // Nothing found says so, with what was typed.
  await searchBox(page).fill('zebracorn');
  await expect(searchDialog(page).getByText('No results for "zebracorn"')).toBeVisible();

  // Across groups: 'grace' finds people (Grace among them) and Ada's chat with her; ↓ from the last person
  // goes on to the chat, ↑ comes back.
  await searchBox(page).fill('grace');
  const chatOption = group(page, 'Chats').getByRole('option', { name: fullName(grace) });
  await expect(chatOption).toBeVisible();
  const peopleOptions = group(page, 'People').getByRole('option');
  await expect(peopleOptions.first()).toHaveAttribute('aria-selected', 'true');
  const shown = await peopleOptions.count();
  for (let i = 0; i < shown; i++) await searchBox(page).press('ArrowDown');
  await expect(chatOption).toHaveAttribute('aria-selected', 'true');
  await expect(searchBox(page)).toHaveAttribute(
    'aria-activedescendant',
    (await chatOption.getAttribute('id')) ?? '',
  );
  await searchBox(page).press('ArrowUp');
  await expect(peopleOptions.last()).toHaveAttribute('aria-selected', 'true');
  await expect(chatOption).toHaveAttribute('aria-selected', 'false');
  await searchBox(page).press('Escape');
  await expect(searchDialog(page)).toHaveCount(0);

  // The header's button opens it too; Enter on the message opens its chat at that message.
  await page
    .getByRole('banner')
    .getByRole('button', { name: /^Search/ })
    .click();
  await searchBox(page).fill('cafe');
  await expect(hit).toHaveAttribute('aria-selected', 'true');
  await searchBox(page).press('Enter');
  await expect(searchDialog(page)).toHaveCount(0);
  // The room loads at that message, scrolls to it and highlights it; the parameter is then dropped.
  await expect(bubble(page, text)).toHaveAttribute('data-highlighted', 'true');
  await expect(bubble(page, text)).toBeInViewport();
  await expect(page).toHaveURL(new RegExp(`/chats/${chatId}$`));

  // In a room the search starts scoped to that chat; Backspace in the empty box widens it again.
  await page.keyboard.press('Control+K');
  await expect(searchDialog(page).getByText(`In: ${fullName(grace)}`)).toBeVisible();
  await searchBox(page).fill('muller');
  await expect(group(page, 'Messages').getByRole('option').locator('mark')).toHaveText(['Müller']);
  await searchBox(page).fill('');
  await searchBox(page).press('Backspace');
  await expect(searchDialog(page).getByText(`In: ${fullName(grace)}`)).toHaveCount(0);
  await page.keyboard.press('Control+K');
  await expect(searchDialog(page)).toHaveCount(0);
});

test('the chat list narrows by name as the person types', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  await privateChat(request, ada, grace);
  await privateChat(request, ada, alan);

  const page = ada.page;
  await page.goto('/chats');
  const rows = page.getByRole('region', { name: 'Chats' }).getByRole('link');
  await expect(rows).toHaveCount(2);
  const filter = page.getByRole('searchbox', { name: 'Filter chats by name' });
  await filter.fill('ala');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(fullName(alan));
  await filter.fill('test gr');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(fullName(grace));
  await filter.fill('nobody');
  await expect(page.getByText('No chats match "nobody"')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId('chat-count')).toHaveText('2 chats');
});

test('New Chat finds a person by the start of their name and starts the chat', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const ximena = await person(browser, request, 'ximena');

  const page = ada.page;
  await page.goto('/chats');
  const newChat = page.getByRole('link', { name: 'New Chat' });
  await expect(newChat).toHaveAttribute('href', '/');
  await newChat.click();
  const dialog = page.getByRole('dialog', { name: 'New Chat' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/chats$/);

  await dialog.getByRole('combobox', { name: 'Search people' }).fill('Xim');
  const option = dialog.getByRole('option').filter({ hasText: `@${ximena.account.username}` });
  await expect(option.locator('mark')).toHaveText(['Ximena']);
  // Oneself is never offered.
  await dialog.getByRole('combobox', { name: 'Search people' }).fill(ada.account.username);
  await expect(dialog.getByText(`No results for "${ada.account.username}"`)).toBeVisible();

  await dialog.getByRole('combobox', { name: 'Search people' }).fill('Xim');
  await option.click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/chats\/[^/?]+$/);
  await expect(page.getByRole('heading', { level: 1, name: fullName(ximena) })).toBeVisible();
});
