import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { readCode } from './mail';

export interface TestAccount {
  first_name: string;
  last_name: string;
  username: string;
  email: string;
  password: string;
}

/** A fresh, unique person for one test: nothing is shared between tests. */
export function newAccount(prefix = 'user'): TestAccount {
  const id = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  return {
    first_name: 'Test',
    last_name: prefix.charAt(0).toUpperCase() + prefix.slice(1),
    username: `${prefix}_${id}`,
    email: `${prefix}.${id}@example.test`,
    password: `Parley-e2e-${id}`,
  };
}

/** Signs up and verifies through the API, for journeys that start from an existing account. */
export async function createVerifiedAccount(
  request: APIRequestContext,
  prefix?: string,
): Promise<TestAccount> {
  const account = newAccount(prefix);
  const registered = await request.post('/api/users/register/', {
    data: {
      first_name: account.first_name,
      last_name: account.last_name,
      username: account.username,
      email: account.email,
      password: account.password,
    },
  });
  expect(registered.ok(), await registered.text()).toBe(true);
  const code = await readCode(request, account.email);
  const verified = await request.post('/api/users/email/verify/signup/', {
    data: { email: account.email, verification_code: code },
  });
  expect(verified.ok(), await verified.text()).toBe(true);
  return account;
}

/** Signs up through the screen, as a new person does, and waits for the code screen. */
export async function signUpOnScreen(page: Page, account: TestAccount) {
  await page.goto('/register');
  await fillSignUpForm(page, account);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
}

/** Types a person's details into the Sign Up form on screen. */
export async function fillSignUpForm(page: Page, account: TestAccount) {
  await page.getByLabel('First Name').fill(account.first_name);
  await page.getByLabel('Last Name').fill(account.last_name);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
}

/** Logs in through the screen. */
export async function logIn(page: Page, email: string, password: string, { rememberMe = true } = {}) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  const remember = page.getByLabel('Remember me');
  await expect(remember).toBeChecked();
  if (!rememberMe) await remember.uncheck();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
}

export const storageItem = (page: Page, kind: 'localStorage' | 'sessionStorage', key: string) =>
  page.evaluate(
    ([k, name]) => window[k as 'localStorage' | 'sessionStorage'].getItem(name as string),
    [kind, key],
  );
