import { MSG } from '@parley/protocol';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { createVerifiedAccount, newAccount, type TestAccount } from './support/accounts';
import { readCode } from './support/mail';

// What a person types into an account screen the moment it appears stays there while the pieces the app loads
// after its first screen arrive: the toasts' library, the stored query cache and the notification channel. On a
// busy machine they can come in after the typing (a code typed into /verify-email was reported cleared as the
// sign-up's toast showed). Each test holds those pieces back until the typing is done, then lets them in: a tree
// whose shape changed as a piece arrived (a provider put above the router once loaded, a boundary around the
// routes) would draw every screen anew and drop what was typed.

// Requests a service worker answers never reach page.route; this file needs every chunk to pass through it.
test.use({ serviceWorkers: 'block' });
test.describe.configure({ timeout: 180_000 });
// A held chunk may still be on its way when a test ends.
test.afterEach(({ page }) => page.unrouteAll({ behavior: 'ignoreErrors' }));

/** What marks each piece's chunk: react-toastify's class names, the cache's store name, the channel's path. */
const TOASTS = 'Toastify__';
const DEFERRED = [TOASTS, 'parley-query-cache', '/ws/notifications/'];
/** A busy machine draws a screen slowly; a ceiling, not a wait. */
const SCREEN = { timeout: 60_000 };

/**
 * Holds back the deferred pieces' code from now on; the returned function lets them in. It first waits until the
 * toasts' code has been asked for and is held (the app asks for it once the first screen has painted), so what
 * was typed before is known to have been typed while that code was missing, and it then waits for the toasts'
 * stack to be drawn: the pieces are in when it returns.
 */
async function holdDeferredPieces(page: Page): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let toastsHeld = false;
  await page.route('**/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (DEFERRED.some((mark) => body.includes(mark))) {
      if (body.includes(TOASTS)) toastsHeld = true;
      await released;
    }
    await route.fulfill({ response, body });
  });
  return async () => {
    await expect.poll(() => toastsHeld, { message: "the toasts' code is held", ...SCREEN }).toBe(true);
    release();
    await expect(page.getByRole('region', { name: /Notifications/ })).toBeAttached(SCREEN);
  };
}

/** Types each value into its field as soon as the field is there. */
async function typeAtOnce(fields: Array<[Locator, string]>) {
  for (const [field, value] of fields) await field.fill(value);
}

/** Every field still holds what was typed, and the button can be pressed. */
async function expectKept(fields: Array<[Locator, string]>, submit: Locator) {
  for (const [field, value] of fields) await expect(field).toHaveValue(value);
  await expect(submit).toBeEnabled();
}

/** Types into `fields` at once, lets the held pieces in, then expects the typing kept and `submit` enabled. */
async function typeThenLetIn(fields: Array<[Locator, string]>, letIn: () => Promise<void>, submit: Locator) {
  await typeAtOnce(fields);
  await letIn();
  await expectKept(fields, submit);
}

/** The sign-up form's fields, filled with `account`. */
const signUpFields = (page: Page, account: TestAccount): Array<[Locator, string]> => {
  const form = page.getByRole('form', { name: 'Sign Up' });
  return [
    [form.getByLabel('First Name'), account.first_name],
    [form.getByLabel('Last Name'), account.last_name],
    [form.getByLabel('Username'), account.username],
    [form.getByLabel('Email'), account.email],
    [form.getByLabel('Password', { exact: true }), account.password],
    [form.getByLabel('Confirm Password', { exact: true }), account.password],
  ];
};

test('the sign-up form keeps what was typed while the deferred pieces load', async ({ page }) => {
  const letIn = await holdDeferredPieces(page);
  await page.goto('/register');
  const submit = page.getByRole('button', { name: 'Sign Up', exact: true });
  await typeThenLetIn(signUpFields(page, newAccount('typing')), letIn, submit);
});

test('the verify screen keeps a code typed as it appears, and the code signs in', async ({
  page,
  request,
}) => {
  const account = newAccount('typing');
  const letIn = await holdDeferredPieces(page);
  await page.goto('/register');
  await typeAtOnce(signUpFields(page, account));
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  const code = await readCode(request, account.email);
  const box = page.getByLabel('Verification code');
  await box.fill(code);
  // The sign-up's toast was waiting for the toasts' code: it shows as that code comes.
  await letIn();
  await expect(page.getByText(MSG.verificationSent)).toBeVisible(SCREEN);
  const verify = page.getByRole('button', { name: 'Verify Email' });
  await expectKept([[box, code]], verify);
  await verify.click();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible(SCREEN);
});

test('the login form keeps what was typed while the deferred pieces load', async ({ page }) => {
  const letIn = await holdDeferredPieces(page);
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Login' });
  const fields: Array<[Locator, string]> = [
    [form.getByLabel('Email'), 'someone@example.test'],
    [form.getByLabel('Password', { exact: true }), 'a password typed at once'],
  ];
  await typeThenLetIn(fields, letIn, form.getByRole('button', { name: 'Login', exact: true }));
});

test('the two-step code keeps what was typed while the deferred pieces load', async ({ page, request }) => {
  const account = await createVerifiedAccount(request, 'typing');
  const login = await request.post('/api/users/login/', {
    data: { email: account.email, password: account.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const headers = { Authorization: `Bearer ${(await login.json()).token}` };
  const setup = await request.post('/api/users/2fa/setup/', { headers });
  expect(setup.ok(), await setup.text()).toBe(true);
  const { secret } = await setup.json();
  const enabled = await request.post('/api/users/2fa/enable/', {
    headers,
    data: { code: await generate({ secret }) },
  });
  expect(enabled.ok(), await enabled.text()).toBe(true);

  const letIn = await holdDeferredPieces(page);
  await page.goto('/login');
  const form = page.getByRole('form', { name: 'Login' });
  await typeAtOnce([
    [form.getByLabel('Email'), account.email],
    [form.getByLabel('Password', { exact: true }), account.password],
  ]);
  await form.getByRole('button', { name: 'Login', exact: true }).click();
  const code: Array<[Locator, string]> = [[form.getByLabel('Authentication code'), '123456']];
  await typeThenLetIn(code, letIn, form.getByRole('button', { name: 'Verify', exact: true }));
});

test('each step of the password reset keeps what was typed while the deferred pieces load', async ({
  page,
  request,
}) => {
  const account = await createVerifiedAccount(request, 'typing');
  const letIn = await holdDeferredPieces(page);
  await page.goto('/reset-password');
  const email: Array<[Locator, string]> = [[page.getByLabel('Email'), account.email]];
  await typeAtOnce(email);
  await expectKept(email, page.getByRole('button', { name: 'Send Reset Code' }));
  await page.getByRole('button', { name: 'Send Reset Code' }).click();
  const code = await readCode(request, account.email, { subject: /reset/i });
  const codeField: Array<[Locator, string]> = [[page.getByLabel('Verification code'), code]];
  await typeAtOnce(codeField);
  // The 'code sent' toast was waiting for the toasts' code.
  await letIn();
  await expect(page.getByText(MSG.resetRequestSent)).toBeVisible(SCREEN);
  await expectKept(codeField, page.getByRole('button', { name: 'Verify Code' }));
  await page.getByRole('button', { name: 'Verify Code' }).click();
  const password = `${account.password}-new`;
  const newPassword: Array<[Locator, string]> = [
    [page.getByLabel('New Password', { exact: true }), password],
  ];
  await typeAtOnce(newPassword);
  await expectKept(newPassword, page.getByRole('button', { name: 'Reset Password' }));
});
