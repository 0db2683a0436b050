import { expect, test } from '@playwright/test';
import { createVerifiedAccount, logIn, newAccount, storageItem } from './support/accounts';
import { mailsTo, readCode } from './support/mail';

// The account journeys in a real browser against the production build, a real database and the dev outbox.

test('sign up, verify the emailed code, land signed in, then log out', async ({ page, request }) => {
  const account = newAccount('signup');
  await page.goto('/register');
  const form = page.getByRole('form', { name: 'Sign Up' });
  await form.getByLabel('First Name').fill(account.first_name);
  await form.getByLabel('Last Name').fill(account.last_name);
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password', { exact: true }).fill(account.password);
  await form.getByLabel('Confirm Password', { exact: true }).fill(account.password);
  await form.getByRole('button', { name: 'Sign Up' }).click();

  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByText(account.email)).toBeVisible();
  await expect(page.getByText('The code expires in 15 minutes.')).toBeVisible();
  const verify = page.getByRole('button', { name: 'Verify Email' });
  await expect(verify).toBeDisabled();

  const code = await readCode(request, account.email);
  await page.getByLabel('Verification code').fill(code);
  await verify.click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  expect(await storageItem(page, 'localStorage', 'token')).toBeTruthy();
  expect(JSON.parse((await storageItem(page, 'localStorage', 'user')) ?? '{}')).toMatchObject({
    email: account.email,
    username: account.username,
  });

  await page.getByRole('link', { name: 'Profile' }).click();
  await expect(
    page.getByRole('heading', { name: `${account.first_name} ${account.last_name}` }),
  ).toBeVisible();
  await expect(page.getByText(account.email)).toBeVisible();

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await storageItem(page, 'localStorage', 'token')).toBeNull();
  expect(await storageItem(page, 'localStorage', 'user')).toBeNull();
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
});

test('an unverified account that logs in is sent to the code screen', async ({ page, request }) => {
  const account = newAccount('unverified');
  const registered = await request.post('/api/users/register/', {
    data: account,
  });
  expect(registered.ok()).toBe(true);
  await logIn(page, account.email, account.password);
  await expect(page).toHaveURL(/\/verify-email$/);
  await expect(page.getByText(account.email)).toBeVisible();
  await page.getByRole('link', { name: '← Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('log in with remember me keeps the session in localStorage and returns to the asked page', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'remember');
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();

  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
  expect(await storageItem(page, 'localStorage', 'token')).toBeTruthy();
  expect(await storageItem(page, 'localStorage', 'rememberMe')).toBe('true');
  expect(await storageItem(page, 'sessionStorage', 'token')).toBeNull();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible();
});

test('log in without remember me keeps the session in sessionStorage only', async ({ page, request }) => {
  const account = await createVerifiedAccount(request, 'session');
  await logIn(page, account.email, account.password, { rememberMe: false });
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  expect(await storageItem(page, 'sessionStorage', 'token')).toBeTruthy();
  expect(await storageItem(page, 'localStorage', 'token')).toBeNull();
});

test('a wrong password shows the red banner and field rules show under their fields', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'wrongpw');
  await page.goto('/login');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await expect(page.getByText('Password is required')).toBeVisible();
  await page.getByLabel('Email').fill(account.email);
  await expect(page.getByText('Email is required')).toBeHidden();

  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const banner = page.getByRole('alert').filter({ hasText: 'Invalid email or password.' });
  await expect(banner).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  // Switching to Sign Up clears the form and the banner.
  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(banner).toBeHidden();
  await page.getByRole('tab', { name: 'Login' }).click();
  await expect(page.getByLabel('Email')).toHaveValue('');
});

test('reset the password by emailed code, then log in with the new one', async ({ page, request }) => {
  const account = await createVerifiedAccount(request, 'reset');
  const newPassword = `${account.password}-new`;
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/reset-password$/);

  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  await expect(page.getByText('If this email exists, a reset code has been sent.')).toBeVisible();

  const code = await readCode(request, account.email, { subject: /reset/i });
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify Code' }).click();

  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  await logIn(page, account.email, account.password);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
  await logIn(page, account.email, newPassword);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('change the email: the code goes to the new address and the change applies once verified', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'change');
  const newEmail = newAccount('changed').email;
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/settings');

  await expect(page.getByTestId('current-email')).toHaveText(account.email);
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Edit email' }).click();
  await page.getByLabel('Email', { exact: true }).fill(newEmail);
  await page.getByRole('button', { name: 'Save' }).click();

  const panel = page.getByRole('form', { name: 'Verify new email' });
  await expect(panel).toBeVisible();
  const code = await readCode(request, newEmail);
  expect((await mailsTo(request, account.email)).some((m) => m.text.includes(code))).toBe(false);
  await panel.getByLabel('Verification code').fill(code);
  await panel.getByRole('button', { name: 'Verify' }).click();

  await expect(panel).toBeHidden();
  await expect(page.getByTestId('current-email')).toHaveText(newEmail);
  expect(JSON.parse((await storageItem(page, 'localStorage', 'user')) ?? '{}').email).toBe(newEmail);

  // A privacy switch saves at once and survives a reload.
  const onlineStatus = page.getByRole('switch', { name: 'Online Status' });
  await expect(onlineStatus).toBeChecked();
  await onlineStatus.click();
  await expect(page.getByText('Settings updated successfully')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('switch', { name: 'Online Status' })).not.toBeChecked();

  await page.getByRole('button', { name: 'Log out' }).click();
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
  await logIn(page, newEmail, account.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('delete the account with its password: signed out, and its login fails afterwards', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'delete');
  await logIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await page.goto('/settings');

  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Account?' });
  await expect(dialog).toBeVisible();
  await expect(
    dialog.getByText(
      'This action cannot be undone. All your data, messages, and account information will be permanently deleted.',
    ),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();

  // One click is not enough: the dialog asks for the password, and a wrong one deletes nothing.
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const confirm = dialog.getByRole('button', { name: 'Delete Account' });
  await expect(confirm).toBeDisabled();
  const password = dialog.getByLabel('Current password');
  await password.fill('not-the-password');
  await confirm.click();
  await expect(dialog.getByText('Wrong password.')).toBeVisible();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await password.fill(account.password);
  await confirm.click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toBeVisible();
  expect(await storageItem(page, 'localStorage', 'token')).toBeNull();

  await logIn(page, account.email, account.password);
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid email or password.' })).toBeVisible();
});
