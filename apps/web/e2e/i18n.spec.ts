import { expect, test } from '@playwright/test';
import { expectAxeCleanLightAndDark } from './support/axe';
import { peoplePerTest } from './support/people';

// Parley in the reader's language: a browser whose language is German shows the header and the chat list in
// German; a person who chooses Arabic in Settings sees the app mirrored, right to left, after a reload (and on
// another device once its settings are read); choosing the browser's language again brings English back.

const person = peoplePerTest();

test('a German browser gets the app in German', async ({ browser, request }, info) => {
  const ada = await person(browser, request, 'ada', { locale: 'de-DE' });
  await ada.page.goto('/chats');
  await expect(ada.page.getByRole('heading', { name: 'Meine Chats' })).toBeVisible({ timeout: 30_000 });
  await expect(ada.page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(ada.page.getByTestId('chat-count')).toHaveText('0 Chats');
  const nav = ada.page.getByRole('navigation', { name: 'Hauptmenü' });
  await expect(nav.getByRole('link', { name: 'Einstellungen' })).toBeVisible();
  await expect(ada.page.getByText('Noch keine Chats')).toBeVisible();
  await ada.page.screenshot({ path: info.outputPath('chats-de.png') });

  // The home page greets in German.
  await ada.page.goto('/');
  await expect(ada.page.getByRole('heading', { name: 'Menschen auf Parley' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(ada.page.getByText(`Willkommen zurück, ${ada.user.first_name}`)).toBeVisible();

  // The own profile, its labels and dates in German.
  await ada.page.goto('/profile');
  await expect(ada.page.getByRole('heading', { name: 'Mein Profil' })).toBeVisible({ timeout: 30_000 });
  await expect(ada.page.getByText('Mitglied seit')).toBeVisible();

  // Settings too: its sections, switches and the toast of a change.
  await ada.page.goto('/settings');
  await expect(ada.page.getByRole('heading', { name: 'Kontoeinstellungen' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(ada.page.getByRole('heading', { name: 'Privatsphäre' })).toBeVisible();
  await ada.page.getByRole('switch', { name: 'Lesebestätigungen' }).click();
  await expect(ada.page.getByText('Einstellungen gespeichert')).toBeVisible();
  await expect(ada.page.getByText('Du hast niemanden blockiert.')).toBeVisible();
  await ada.page.screenshot({ path: info.outputPath('settings-de.png') });
});

test('choosing Arabic mirrors the app, and it follows the account to another device', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const page = ada.page;
  await page.goto('/settings');
  const choice = page.getByLabel('Language', { exact: true });
  await expect(choice).toBeVisible({ timeout: 30_000 });
  await choice.selectOption('ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByText('تم حفظ اللغة')).toBeVisible();

  await page.reload();
  await page.goto('/chats');
  await expect(page.getByRole('heading', { name: 'محادثاتي' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 800 });
    await expectAxeCleanLightAndDark(page);
    await page.screenshot({ path: info.outputPath(`chats-ar-${name}.png`) });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: info.outputPath(`chats-ar-${name}-dark.png`) });
    await page.emulateMedia({ colorScheme: 'light' });
  }
  // The header's first item sits at the right edge, as Arabic reads.
  const logo = await page.getByRole('link', { name: 'الصفحة الرئيسية لـ Parley' }).boundingBox();
  expect(logo?.x ?? 0).toBeGreaterThan(200);

  // Another device, an English browser: the account's language wins once its settings are read.
  const other = await browser.newContext({ locale: 'en-US' });
  await other.addInitScript(
    ({ token, user }) => {
      window.localStorage.setItem('token', token);
      window.localStorage.setItem('user', user);
      window.localStorage.setItem('rememberMe', 'true');
    },
    { token: ada.token, user: JSON.stringify(ada.user) },
  );
  const second = await other.newPage();
  await second.goto('/chats');
  await expect(second.locator('html')).toHaveAttribute('dir', 'rtl', { timeout: 30_000 });
  await expect(second.getByRole('heading', { name: 'محادثاتي' })).toBeVisible();
  await other.close();

  // The browser's language again: English.
  await page.goto('/settings');
  await page.getByLabel('اللغة', { exact: true }).selectOption('browser');
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await expect(page.getByRole('heading', { name: 'Language', exact: true })).toBeVisible();
});
