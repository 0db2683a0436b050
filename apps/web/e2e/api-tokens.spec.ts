import { expect, test } from '@playwright/test';
import { expectAxeCleanLightAndDark } from './support/axe';
import { peoplePerTest } from './support/people';
import { loading } from './support/room';

// Settings → API tokens: a person makes a token with a name, an access and an expiry, sees its secret once
// (with the warning that it will not be shown again), finds it listed without the secret, and revokes it after a
// confirmation, after which the API refuses it. axe is clean in light and dark at 1280 and 390 px.

const person = peoplePerTest();

test('a person makes an API token, sees it once, uses it, and revokes it', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const page = ada.page;
  await page.goto('/settings');
  const section = page.locator('section').filter({ has: page.getByRole('heading', { name: 'API tokens' }) });
  await expect(section.getByText('You have no API tokens.')).toBeVisible(loading);

  const form = page.getByRole('form', { name: 'New API token' });
  await form.getByLabel('Token name').fill('Deploy script');
  await form.getByLabel('Expires after').selectOption({ label: '30 days' });
  await form.getByRole('radio', { name: /Read and write/ }).check();
  await form.getByRole('button', { name: 'Create token' }).click();

  const secret = page.getByLabel('API token', { exact: true });
  await expect(secret).toHaveText(/^prl_[0-9A-Za-z]{43}$/);
  await expect(section.getByText('It will not be shown again.', { exact: false })).toBeVisible();
  const token = (await secret.textContent()) ?? '';
  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await secret.scrollIntoViewIfNeeded();
    await expect(secret).toBeInViewport();
    await expectAxeCleanLightAndDark(page);
    await page.screenshot({ path: info.outputPath(`secret-${name}.png`), animations: 'disabled' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: info.outputPath(`secret-${name}-dark.png`), animations: 'disabled' });
    await page.emulateMedia({ colorScheme: 'light' });
  }

  // The token works for the API, as Ada.
  const auth = { Authorization: `Bearer ${token}` };
  const me = await request.get('/api/users/profile/', { headers: auth });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(ada.account.username);

  await page.getByRole('button', { name: 'I have saved it' }).click();
  await expect(secret).toHaveCount(0);
  const row = section.getByRole('listitem').filter({ hasText: 'Deploy script' });
  await expect(row).toContainText('Read and write');
  await expect(row).toContainText('Expires');
  await expect(page.getByText(token)).toHaveCount(0);

  await row.getByRole('button', { name: 'Revoke Deploy script' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('refused from now on');
  await dialog.getByRole('button', { name: 'Revoke token' }).click();
  await expect(section.getByText('You have no API tokens.')).toBeVisible();
  expect((await request.get('/api/users/profile/', { headers: auth })).status()).toBe(401);
});
