import { expect, test } from '@playwright/test';
import { newAccount, signUpOnScreen } from './support/accounts';
import { peoplePerTest } from './support/people';

// Defects a new user found: over-long sign-up fields, a 300-character group name, 'Last seen' on
// one's own profile while online, and toasts over the verify card on a phone.
const person = peoplePerTest();

test('sign-up fields stop at the server’s limits; a refusal by field shows no extra banner', async ({
  page,
}) => {
  await page.goto('/register');
  const long = 'x'.repeat(300);
  for (const [label, limit] of [
    ['First Name', 150],
    ['Last Name', 150],
    ['Username', 150],
    ['Email', 254],
  ] as const) {
    const field = page.getByLabel(label, { exact: true });
    await field.fill(long);
    await expect(field).toHaveValue('x'.repeat(limit));
  }
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('maxlength', '128');
  await expect(page.getByLabel('Confirm Password')).toHaveAttribute('maxlength', '128');

  // A username the server refuses is named under the field in plain words, with no generic banner.
  const a = newAccount('limits');
  await page.getByLabel('First Name', { exact: true }).fill(a.first_name);
  await page.getByLabel('Last Name', { exact: true }).fill(a.last_name);
  await page.getByLabel('Username', { exact: true }).fill('no spaces allowed');
  await page.getByLabel('Email', { exact: true }).fill(a.email);
  await page.getByLabel('Password', { exact: true }).fill(a.password);
  await page.getByLabel('Confirm Password').fill(a.password);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByText('Username may contain only letters, numbers and . _ -')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: 'Registration failed' })).toHaveCount(0);
  await expect(page.getByText(/Too big|expected string/)).toHaveCount(0);
});

test('a group name past 100 characters is refused in words, not silently cut', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const { page } = ada;
  await ada.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto('/chats');
  await page.getByRole('button', { name: 'New Group' }).click();
  const name = page.getByRole('dialog', { name: 'New Group' }).getByLabel('Group name');
  await expect(page.getByText('Up to 100 characters (0/100)')).toBeVisible();
  await page.evaluate(() => navigator.clipboard.writeText('g'.repeat(300)));
  await name.focus();
  await page.keyboard.press('ControlOrMeta+v');
  await expect(name).toHaveValue('g'.repeat(100));
  await expect(page.getByText('Group name must be at most 100 characters')).toBeVisible();
  await expect(page.getByText('Up to 100 characters (100/100)')).toBeVisible();
});

test('one’s own profile says Online while its owner is here', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const { page } = ada;
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await expect(page.getByText('Online', { exact: true })).toBeVisible();
  await expect(page.getByText(/Last seen/)).toHaveCount(0);
});

test('on a phone, toasts leave the verify card’s code box and button uncovered', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signUpOnScreen(page, newAccount('vera'));
  // Two more notices on top of the sign-up's: letters typed in the code box, then a resend.
  await page.getByLabel('Verification code').pressSequentially('ab');
  await page.getByRole('button', { name: 'Resend verification code' }).click();
  await expect(page.locator('.Toastify__toast')).not.toHaveCount(0);
  for (const target of [
    page.getByLabel('Verification code'),
    page.getByRole('button', { name: 'Verify Email' }),
  ]) {
    const box = (await target.boundingBox())!;
    const hit = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x, y)?.closest('.Toastify') !== null,
      [box.x + box.width / 2, box.y + box.height / 2] as const,
    );
    expect(hit).toBe(false);
  }
  await context.close();
});
