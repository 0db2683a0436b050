import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { generate } from 'otplib';
import { type OidcTestProvider, startOidcProvider } from '../../server/test/helpers/oidc-provider';
import { createVerifiedAccount } from './support/accounts';
import { expectAxeCleanAtBothWidths, expectAxeCleanLightAndDark } from './support/axe';
import { freePort, startServer, untilHealthy } from './support/server-process';

// Single sign-on in Chromium: a Parley server of this file's own, configured for a real OpenID provider started
// here (oidc-provider and its own login and consent pages). The sign-in page shows 'Sign in with Acme ID'; a
// person goes through the provider's pages and lands in the app signed in, with an account made from the
// provider's claims; a sign-in that comes back refused shows a clear banner.

test.describe.configure({ mode: 'serial' });

let provider: OidcTestProvider;
const servers: ChildProcess[] = [];
const dataDirs: string[] = [];
/** The server with passwords as usual, and the one where they sign in site admins only (OIDC_ONLY). */
let base: string;
let ssoOnlyBase: string;

async function startParley(env: Record<string, string>): Promise<string> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  provider.allow(origin);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-sso-'));
  dataDirs.push(dataDir);
  servers.push(startServer(port, dataDir, { ...provider.env('Acme ID'), ...env }));
  const api = await playwrightRequest.newContext({ baseURL: origin });
  await untilHealthy(api);
  await api.dispose();
  return origin;
}

test.beforeAll(async () => {
  provider = await startOidcProvider();
  base = await startParley({});
  ssoOnlyBase = await startParley({ OIDC_ONLY: 'true' });
});

test.afterAll(async () => {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (server.exitCode !== null) return resolve();
          server.once('exit', () => resolve());
          server.kill();
        }),
    ),
  );
  await provider?.close();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

const ssoButton = (page: Page) => page.getByRole('link', { name: 'Sign in with Acme ID' });

test('the sign-in page offers the provider, and is clean at both widths in both themes', async ({
  browser,
}, info) => {
  const pages: Page[] = [];
  for (let i = 0; i < 2; i++) {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${base}/login`);
    await expect(ssoButton(page)).toBeVisible();
    await expect(page.getByLabel('Email')).toBeVisible();
    pages.push(page);
  }
  await expectAxeCleanAtBothWidths([pages[0] as Page, pages[1] as Page], ssoButton, (width, which) =>
    info.outputPath(`sign-in-${width}-${which === 'first' ? 'light' : 'dark'}.png`),
  );
  for (const page of pages) await page.context().close();
});

test('a person signs in through the provider and lands in the app with a new account', async ({ page }) => {
  provider.account('grace', {
    email: `grace.${Date.now()}@example.test`,
    email_verified: true,
    given_name: 'Grace',
    family_name: 'Hopper',
    preferred_username: 'grace',
  });
  await page.goto(`${base}/login`);
  await ssoButton(page).click();
  // The provider's own pages: its login form, then its consent.
  await atProvider(page, 'grace');

  // Back in Parley, signed in, with the one-time code gone from the address; the account is the claims'.
  await expect(page).toHaveURL(`${base}/`);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  const me = await page.evaluate(async () => {
    const raw = localStorage.getItem('user') ?? sessionStorage.getItem('user');
    return raw ? (JSON.parse(raw) as { username: string; displayname: string }) : null;
  });
  expect(me).toMatchObject({ username: 'grace', displayname: 'Grace Hopper' });
});

/** Through the provider's login and consent pages, as `login`. */
async function atProvider(page: Page, login: string) {
  await page.getByPlaceholder('Enter any login').fill(login);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a person with two-step sign-in is still asked for a code, then goes where they were going', async ({
  page,
}) => {
  const api = await playwrightRequest.newContext({ baseURL: base });
  const account = await createVerifiedAccount(api, 'twostep');
  const token = (await (await api.post('/api/users/login/', { data: account })).json()).token as string;
  const auth = { Authorization: `Bearer ${token}` };
  const { secret } = await (await api.post('/api/users/2fa/setup/', { headers: auth })).json();
  const enabled = await api.post('/api/users/2fa/enable/', {
    headers: auth,
    data: { code: await generate({ secret, epoch: Math.floor(Date.now() / 1000) }) },
  });
  expect(enabled.ok(), await enabled.text()).toBe(true);
  const [recoveryCode] = (await enabled.json()).recovery_codes as string[];
  await api.dispose();

  const login = `twostep${Date.now()}`;
  provider.account(login, { email: account.email, email_verified: true });
  // Sent to sign in from a page of the app, they come back to it.
  await page.goto(`${base}/settings`);
  await expect(page).toHaveURL(`${base}/login`);
  await ssoButton(page).click();
  await atProvider(page, login);

  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(new URL(page.url()).hash).toBe('');
  await code.fill(recoveryCode as string);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(`${base}/settings`);
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
});

test('a sign-in that comes back refused is told in a banner', async ({ page }) => {
  await page.goto(`${base}/login`);
  await ssoButton(page).click();
  await page.getByRole('link', { name: '[ Cancel ]' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('alert')).toHaveText('Acme ID did not sign you in.');
  await expect(ssoButton(page)).toBeVisible();
});

test('where passwords sign in site admins only, the provider comes first', async ({ page }, info) => {
  await page.goto(`${ssoOnlyBase}/login`);
  await expect(ssoButton(page)).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 800 });
  await page.screenshot({ path: info.outputPath('sso-only-narrow.png') });
  await expectAxeCleanLightAndDark(page);

  // A site admin still has the password form, a click away; the server decides who may use it.
  await page.getByRole('button', { name: 'Site administrator? Log in with a password' }).click();
  await expect(page.getByLabel('Email')).toBeVisible();

  await page.getByRole('tab', { name: 'Sign Up' }).click();
  await expect(page.getByText('Accounts on this server are made by signing in with Acme ID.')).toBeVisible();
  await expect(ssoButton(page)).toBeVisible();
  await expect(page.getByLabel('First Name')).toHaveCount(0);
});
