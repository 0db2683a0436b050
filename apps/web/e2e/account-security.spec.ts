import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { createVerifiedAccount, logIn } from './support/accounts';

// Account security in a real browser: two-step sign-in set up by reading the secret off the screen (as a phone's app
// would scan it) and used to log in, and the sessions list signing another browser out.

/** The authenticator app's code, `stepsAhead` time steps from now (each step is accepted once). */
const appCode = (secret: string, stepsAhead = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });

/** The screen as it is now has no axe violations (their ids and targets are named when it has). */
async function expectAxeClean(page: Page, within?: string) {
  const builder = new AxeBuilder({ page });
  const { violations } = await (within ? builder.include(within) : builder).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('turn on two-step sign-in, log in with a code, then delete the account with one', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'twostep');
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/settings');

  const section = page.locator('section', { has: page.getByRole('heading', { name: 'Two-step sign-in' }) });
  await section.getByRole('button', { name: 'Set up two-step sign-in' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const secret = (await section.getByLabel('Setup key').inputValue()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAxeClean(page);

  await section.getByLabel('Code from your app').fill(await appCode(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  const recoveryCode = (await codes.first().textContent())?.trim() ?? '';
  await expectAxeClean(page);
  await section.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(section.getByText('10 recovery codes left.')).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();

  await logIn(page, account.email, account.password);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expectAxeClean(page, 'form[aria-label="Login"]');
  // Asked for the second step, not refused: no red banner.
  await expect(page.getByRole('alert')).toHaveCount(0);
  const near = await Promise.all([-1, 0, 1, 2].map((step) => appCode(secret, step)));
  await code.fill(['000000', '111111', '222222', '333333', '444333'].find((c) => !near.includes(c)) ?? '');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toContainText('Invalid two-step sign-in code.');
  // The current step was used to turn it on: the next one (the app shows it within 30 s) signs in.
  await code.fill(await appCode(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();

  // With two-step sign-in on, deleting the account asks for a code as well as the password.
  await page.goto('/settings');
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Account?' });
  await dialog.getByLabel('Current password').fill(account.password);
  const confirm = dialog.getByRole('button', { name: 'Delete Account' });
  await expect(confirm).toBeDisabled();
  await expectAxeClean(page, 'dialog');
  await dialog.getByLabel('Code from your app or a recovery code').fill(recoveryCode);
  await confirm.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
});

test('the sessions list shows this browser; signing another one out signs it out there', async ({
  browser,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'sessions');
  const mine = await browser.newContext();
  const other = await browser.newContext();
  try {
    const page = await mine.newPage();
    await logIn(page, account.email, account.password);
    await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
    const away = await other.newPage();
    await logIn(away, account.email, account.password);
    await expect(away.getByRole('button', { name: 'Log out' })).toBeVisible();
    await away.goto('/chats');
    await expect(away.getByRole('heading', { name: 'My Chats' })).toBeVisible();

    await page.goto('/settings');
    const sessions = page.getByRole('list', { name: 'Signed-in sessions' }).getByRole('listitem');
    // Sign-up's own session, this browser's and the other browser's, newest first.
    await expect(sessions).toHaveCount(3);
    await expect(sessions.nth(1)).toContainText('This device');
    await expect(sessions.nth(1).getByRole('button')).toHaveCount(0);
    await expectAxeClean(page);

    // The newest is the other browser's.
    await sessions
      .nth(0)
      .getByRole('button', { name: /^Sign out / })
      .click();
    await expect(sessions).toHaveCount(2);
    // Its socket closes with 4001, and it is signed out there without a click.
    await expect(away).toHaveURL(/\/login$/);
    await expect(away.getByRole('form', { name: 'Login' })).toBeVisible();
    expect(await away.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

    await page.getByRole('button', { name: 'Sign out all other sessions' }).click();
    await expect(sessions).toHaveCount(1);
    await expect(sessions.first()).toContainText('This device');
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  } finally {
    await mine.close();
    await other.close();
  }
});
