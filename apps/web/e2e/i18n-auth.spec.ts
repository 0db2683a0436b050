import { expect, type Page, test } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts';
import { expectAxeCleanLightAndDark } from './support/axe';

// The sign-in pages in the reader's language: a German browser gets them in German, the server's refusal too
// (the API says it in English; the app shows it by its catalog id); the Language choice at the foot of the card
// switches at once, and Arabic mirrors the page.

/** Axe clean at 1280 and 390 px in both themes, with a screenshot of each. */
async function lookAtBothWidths(page: Page, name: string, outputPath: (file: string) => string) {
  for (const [width, size] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expectAxeCleanLightAndDark(page);
    await page.screenshot({ path: outputPath(`${name}-${size}.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: outputPath(`${name}-${size}-dark.png`), fullPage: true });
    await page.emulateMedia({ colorScheme: 'light' });
  }
}

test('a German browser signs in in German and hears a wrong password in German', async ({
  browser,
  request,
}, info) => {
  const account = await createVerifiedAccount(request, 'deauth');
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Willkommen zurück' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  const form = page.getByRole('form', { name: 'Anmelden' });
  await expect(page.getByRole('tab', { name: 'Registrieren' })).toBeVisible();
  await expect(form.getByRole('button', { name: 'Passwort anzeigen' })).toBeVisible();
  await expect(page.getByLabel('Sprache')).toHaveValue('de');

  // The form's own rules first, then the server's refusal.
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(form.getByText('E-Mail-Adresse fehlt')).toBeVisible();
  await form.getByLabel('E-Mail').fill(account.email);
  await form.getByLabel('Passwort', { exact: true }).fill(`${account.password}-wrong`);
  await form.getByRole('button', { name: 'Anmelden' }).click();
  await expect(page.getByRole('alert')).toHaveText('E-Mail-Adresse oder Passwort ist falsch.');
  await lookAtBothWidths(page, 'login-de', (file) => info.outputPath(file));

  // The password reset's steps speak German too.
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page.getByRole('heading', { name: 'Setze dein Passwort zurück' })).toBeVisible();
  await expect(page.getByText('Schritt 1 von 3')).toBeVisible();
  await context.close();
});

test('choosing Arabic on the sign-in page mirrors it at once, and it stays after a reload', async ({
  browser,
}, info) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');

  await page.getByLabel('Language').selectOption({ label: 'العربية' });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
  await expect(page.getByRole('heading', { name: 'مرحبًا بعودتك' })).toBeVisible();
  await expect(
    page.getByRole('form', { name: 'تسجيل الدخول' }).getByLabel('كلمة المرور', { exact: true }),
  ).toBeVisible();
  // The back button, the card's first item, sits at the right edge, as Arabic reads.
  const back = await page.getByRole('button', { name: 'الرجوع' }).boundingBox();
  expect(back?.x ?? 0).toBeGreaterThan(640);
  await lookAtBothWidths(page, 'login-ar', (file) => info.outputPath(file));

  await page.getByRole('tab', { name: 'إنشاء حساب' }).click();
  await expect(page.getByRole('heading', { name: 'أنشئ حسابك' })).toBeVisible();
  await lookAtBothWidths(page, 'signup-ar', (file) => info.outputPath(file));

  await page.reload();
  await expect(page.getByRole('heading', { name: 'أنشئ حسابك' })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  // And back to English.
  await page.getByLabel('اللغة').selectOption('en');
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
  await context.close();
});
