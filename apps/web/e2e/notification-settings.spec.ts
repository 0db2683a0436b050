import { expect, type Locator, type Page, test } from '@playwright/test';
import { createVerifiedAccount, logIn } from './support/accounts';

// The notification switches: they save at once, survive a reload, and Push Notifications brings
// the service worker that shows Web Push messages. (Delivery itself is proven by the server's tests, which
// decrypt a real push; headless Chromium has no push service to subscribe with.)

/** Flips a switch and waits for the server to store it. */
async function toggle(page: Page, control: Locator) {
  const saved = page.waitForResponse(
    (r) => r.url().endsWith('/api/users/profile/settings/') && r.request().method() === 'PUT',
  );
  await control.click();
  expect((await saved).ok()).toBe(true);
}

test('notification switches persist across reload; push on registers the service worker', async ({
  page,
  context,
  request,
  baseURL,
}) => {
  await context.grantPermissions(['notifications'], { origin: baseURL });
  const account = await createVerifiedAccount(request, 'notify');
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/settings');

  const push = page.getByRole('switch', { name: 'Push Notifications' });
  const email = page.getByRole('switch', { name: 'Email Notifications' });
  await expect(push).toBeChecked();
  await expect(email).not.toBeChecked();

  // Push is on by default: the service worker is installed for this origin.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration('/sw.js');
        return registration?.active?.scriptURL ?? registration?.installing?.scriptURL ?? null;
      }),
    )
    .toMatch(/\/sw\.js$/);

  await toggle(page, push);
  await expect(push).not.toBeChecked();
  await expect(page.getByText('Settings updated successfully').first()).toBeVisible();
  await toggle(page, email);
  await expect(email).toBeChecked();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Push Notifications' })).not.toBeChecked();
  await expect(page.getByRole('switch', { name: 'Email Notifications' })).toBeChecked();
  // Push off: this browser holds no push subscription.
  expect(
    await page.evaluate(async () => {
      const registration = await navigator.serviceWorker.getRegistration('/sw.js');
      return (await registration?.pushManager.getSubscription()) ?? null;
    }),
  ).toBeNull();

  await toggle(page, push);
  await toggle(page, email);
  await expect(email).not.toBeChecked();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Push Notifications' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Email Notifications' })).not.toBeChecked();
});
