import { POLL_TEXT } from '@parley/protocol';
import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanAtBothWidths, expectAxeCleanLightAndDark } from './support/axe';
import { fullName, groupChat, peoplePerTest } from './support/people';
import { openRoom, timeline } from './support/room';

// Polls between two people in a group: Ada asks one from the composer's 'Create poll' (its form says what is
// wrong first), Ben votes by click and by keyboard, both see the bars move live, Ben's checkmark and name; Ada
// closes it and Ben can vote no more. axe checks the dialog and the card in light and dark, at 1280 and 390 px.

const person = peoplePerTest();

const poll = (page: Page) => timeline(page).getByTestId('poll');
const option = (page: Page, name: string) =>
  poll(page).getByRole('button', { name: new RegExp(`^${name} ?:`) });

test('one asks a poll, the other votes, both see the bars move live', async ({ browser, request }, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const ben = await person(browser, request, 'ben');
  const chatId = await groupChat(request, ada, 'Lunch club', [ben]);
  await Promise.all([openRoom(ada.page, `/groups/${chatId}`), openRoom(ben.page, `/groups/${chatId}`)]);

  // The form says what is missing before anything is sent (the room is drawn anew across the breakpoint, so
  // the dialog is opened at each width).
  const dialog = ada.page.getByRole('dialog', { name: 'Create poll' });
  for (const [width, name] of [
    [390, 'narrow'],
    [1280, 'wide'],
  ] as const) {
    await ada.page.setViewportSize({ width, height: 800 });
    await ada.page.getByRole('button', { name: 'Create poll' }).click();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Question', { exact: true })).toBeFocused();
    await dialog.getByRole('button', { name: 'Create poll' }).click();
    await expect(dialog.getByText(POLL_TEXT.questionRequired)).toBeVisible();
    await expect(dialog.getByText(POLL_TEXT.optionRequired)).toHaveCount(2);
    await expectAxeCleanLightAndDark(ada.page);
    await ada.page.screenshot({ path: info.outputPath(`dialog-${name}.png`) });
    if (width === 390) {
      await ada.page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);
    }
  }

  await dialog.getByLabel('Question', { exact: true }).fill('Where shall we eat on Friday?');
  await dialog.getByLabel('Option 1', { exact: true }).fill('Noodle bar');
  await dialog.getByLabel('Option 2', { exact: true }).fill('Noodle bar');
  await dialog.getByRole('button', { name: 'Add option' }).click();
  await expect(dialog.getByLabel('Option 3', { exact: true })).toBeFocused();
  await dialog.getByLabel('Option 3', { exact: true }).fill('Harbour café');
  await dialog.getByRole('button', { name: 'Create poll' }).click();
  await expect(dialog.getByText(POLL_TEXT.sameOptions)).toBeVisible();
  await dialog.getByLabel('Option 2', { exact: true }).fill('Pizza place');
  await dialog.getByRole('button', { name: 'Create poll' }).click();
  await expect(dialog).toHaveCount(0);

  for (const page of [ada.page, ben.page]) {
    await expect(poll(page)).toBeVisible({ timeout: 30_000 });
    await expect(
      poll(page).getByRole('heading', { name: 'Poll: Where shall we eat on Friday?' }),
    ).toBeVisible();
    await expect(poll(page)).toContainText('Choose one · 0 voters');
  }

  // Ben votes with a click: both see the bar grow, Ben his checkmark, Ada his name.
  await option(ben.page, 'Pizza place').click();
  await expect(option(ben.page, 'Pizza place')).toHaveAttribute('aria-pressed', 'true');
  for (const page of [ada.page, ben.page]) {
    await expect(option(page, 'Pizza place')).toHaveAccessibleName(/100% ?, 1 vote/);
    await expect(poll(page).getByTestId('poll-bar').nth(1)).toHaveAttribute('style', /width: 100%/);
  }
  await expect(option(ada.page, 'Pizza place')).toHaveAttribute('aria-pressed', 'false');
  await expect(option(ada.page, 'Pizza place')).toHaveAccessibleName(
    new RegExp(`1 vote · ${fullName(ben)}$`),
  );
  await expect(option(ben.page, 'Pizza place')).toHaveAccessibleName(/1 vote · You$/);

  // Ada votes with the keyboard; both see the shares split.
  await option(ada.page, 'Harbour café').focus();
  await ada.page.keyboard.press('Enter');
  for (const page of [ada.page, ben.page]) {
    await expect(option(page, 'Harbour café')).toHaveAccessibleName(/50% ?, 1 vote/);
    await expect(option(page, 'Pizza place')).toHaveAccessibleName(/50% ?, 1 vote/);
    await expect(poll(page)).toContainText('2 voters');
  }

  await expectAxeCleanAtBothWidths([ada.page, ben.page], poll, (width, which) =>
    info.outputPath(`poll-${width}-${which === 'first' ? 'asker' : 'voter-dark'}.png`),
  );

  // Ben takes his vote back; Ada sees it go.
  await poll(ben.page).getByRole('button', { name: 'Retract vote' }).click();
  await expect(option(ada.page, 'Pizza place')).toHaveAccessibleName(/0% ?, 0 votes/);
  await expect(option(ben.page, 'Pizza place')).toHaveAttribute('aria-pressed', 'false');

  // Only the asker closes it; then nobody votes.
  await expect(poll(ben.page).getByRole('button', { name: 'Close poll' })).toHaveCount(0);
  await poll(ada.page).getByRole('button', { name: 'Close poll' }).click();
  for (const page of [ada.page, ben.page]) await expect(poll(page)).toContainText('Closed · 1 voter');
  for (const page of [ada.page, ben.page]) {
    await expect(option(page, 'Noodle bar')).toBeDisabled();
    await expect(poll(page).getByRole('button', { name: 'Retract vote' })).toHaveCount(0);
  }
  await ben.page.screenshot({ path: info.outputPath('poll-closed.png') });

  // The chat list shows the poll by its question.
  await ben.page.goto('/chats');
  await expect(ben.page.getByText('📊 Where shall we eat on Friday?')).toBeVisible({ timeout: 30_000 });
});
