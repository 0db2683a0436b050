import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanAtBothWidths } from './support/axe';
import { peoplePerTest, privateChat } from './support/people';
import { loading } from './support/room';

// A chat room in the reader's language: a German browser sees the composer, a message's menu, the day's heading
// and the emoji picker's names in German; an Arabic reader sees the room mirrored, their own bubbles on the
// left, the other person's on the right, and the texts in Arabic.

const person = peoplePerTest();

const bubble = (page: Page, text: string) =>
  page.locator('[data-message-id]').filter({ has: page.locator('p', { hasText: text }) });

async function sendFrom(page: Page, box: string, text: string) {
  const composer = page.getByRole('textbox', { name: box });
  await composer.fill(text);
  await composer.press('Enter');
  await expect(bubble(page, text).last()).toBeVisible();
}

test('a German reader has the room in German', async ({ browser, request }, info) => {
  const ada = await person(browser, request, 'ada', { locale: 'de-DE' });
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  const page = ada.page;
  await page.goto(`/chats/${chatId}`);
  const composer = page.getByRole('textbox', { name: 'Nachricht' });
  await expect(composer).toBeVisible(loading);
  await expect(composer).toHaveAttribute('placeholder', 'Schreib eine Nachricht …');
  await expect(page.getByText('Noch keine Nachrichten. Sag Hallo!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zurück zu den Chats' })).toBeVisible();

  await sendFrom(page, 'Nachricht', 'Guten Morgen!');
  const timeline = page.getByRole('region', { name: 'Nachrichten' });
  await expect(timeline.getByText('Heute', { exact: true })).toBeVisible();
  // The time under the bubble is a 24-hour clock.
  await expect(bubble(page, 'Guten Morgen!').getByText(/^\d{2}:\d{2}$/)).toBeVisible();

  const row = bubble(page, 'Guten Morgen!').last();
  await row.hover();
  await row.getByRole('button', { name: 'Aktionen für die Nachricht' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem', { name: 'Antworten', exact: true })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Bearbeiten' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Text kopieren' })).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Löschen' })).toBeVisible();
  await page.screenshot({ path: info.outputPath('room-de-menu.png') });
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(page.getByRole('button', { name: 'Nachricht senden' })).toBeVisible();

  // The emoji picker finds an emoji by its German name, and names it in German.
  await page.getByRole('button', { name: 'Emoji einfügen' }).click();
  const picker = page.getByRole('dialog', { name: 'Emoji einfügen' });
  await picker.getByRole('combobox').fill('Ananas');
  const pineapple = picker.getByRole('option', { name: /🍍/ }).first();
  await expect(pineapple).toBeVisible(loading);
  await expect(pineapple).toHaveAccessibleName(/Ananas/);
  await page.screenshot({ path: info.outputPath('room-de-picker.png') });
  await pineapple.click();
  await expect(composer).toHaveValue('🍍');
});

test('an Arabic reader has the room mirrored, their own bubbles on the left', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada', { locale: 'ar' });
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(grace.page.getByRole('textbox', { name: 'Message' })).toBeVisible(loading);
  await sendFrom(grace.page, 'Message', 'Hello from Grace');

  const page = ada.page;
  await page.goto(`/chats/${chatId}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('textbox', { name: 'الرسالة' })).toBeVisible(loading);
  await expect(page.getByRole('textbox', { name: 'الرسالة' })).toHaveAttribute(
    'placeholder',
    'اكتب رسالتك...',
  );
  await sendFrom(page, 'الرسالة', 'مرحبا يا غريس');
  await expect(
    page.getByRole('region', { name: 'الرسائل' }).getByText('اليوم', { exact: true }),
  ).toBeVisible();

  const body = (text: string) => bubble(page, text).last().locator('p', { hasText: text });
  const ownBox = await body('مرحبا يا غريس').boundingBox();
  const theirBox = await body('Hello from Grace').boundingBox();
  // Mirrored: one's own bubble starts at the left edge, the other person's at the right.
  const middle = (box: { x: number; width: number } | null) => (box ? box.x + box.width / 2 : Number.NaN);
  expect(middle(ownBox)).toBeLessThan(middle(theirBox));

  await expectAxeCleanAtBothWidths(
    [page, page],
    (p) => p.getByRole('textbox', { name: 'الرسالة' }),
    (width, which) => info.outputPath(`room-ar-${width}-${which}.png`),
  );
});
