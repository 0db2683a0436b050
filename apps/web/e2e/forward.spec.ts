import { expect, test } from '@playwright/test';
import { seriousFindings } from './support/axe';
import { fullName, groupChat, peoplePerTest, privateChat } from './support/people';
import { loading, openMessageMenu, openRoom, timeline } from './support/room';

// Forward: Ada sends a message of a group on to her private chat with Grace from the message's actions, through
// a searchable chat picker; Grace sees it arrive live, marked 'Forwarded' and naming nothing of the group.

const person = peoplePerTest();

for (const { width, theme } of [
  { width: 1280, theme: 'light' as const },
  { width: 390, theme: 'dark' as const },
]) {
  test(`a message forwarded to another chat arrives there marked, at ${width} px in the ${theme} theme`, async ({
    browser,
    request,
  }) => {
    const options = { viewport: { width, height: 800 }, colorScheme: theme };
    const ada = await person(browser, request, 'ada', options);
    const grace = await person(browser, request, 'grace', options);
    const alan = await person(browser, request, 'alan', options);
    const group = await groupChat(request, ada, `Book club ${Date.now().toString(36)}`, [alan]);
    const withGrace = await privateChat(request, ada, grace);

    await openRoom(grace.page, `/chats/${withGrace}`);
    await openRoom(ada.page, `/groups/${group}`);
    const box = ada.page.getByRole('textbox', { name: 'Message' });
    await box.fill('Read chapter 3 by Friday');
    await box.press('Enter');
    const row = timeline(ada.page)
      .locator('[data-message-id]')
      .filter({ hasText: 'Read chapter 3 by Friday' });
    await expect(row).toBeVisible();
    await expect(row).not.toHaveAttribute('data-message-id', /^-/);

    await row.hover();
    await openMessageMenu(row);
    await ada.page.getByRole('menu').getByRole('menuitem', { name: 'Forward' }).click();
    const dialog = ada.page.getByRole('dialog', { name: 'Forward message' });
    await expect(dialog.getByRole('checkbox').first()).toBeVisible(loading);
    await dialog.getByRole('searchbox', { name: 'Search chats' }).fill(grace.user.first_name);
    const graceBox = dialog.getByRole('checkbox', { name: fullName(grace) });
    await graceBox.check();
    await expect(dialog.getByText('1 of 5 chosen')).toBeVisible();
    expect(await seriousFindings(ada.page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Forward' }).click();
    await expect(dialog).toBeHidden();

    const copy = timeline(grace.page)
      .locator('[data-message-id]')
      .filter({ hasText: 'Read chapter 3 by Friday' });
    await expect(copy).toBeVisible();
    await expect(copy.getByTestId('forwarded')).toHaveText('Forwarded');
    await expect(copy).not.toContainText('Book club');
    expect(await seriousFindings(grace.page)).toEqual([]);
  });
}
