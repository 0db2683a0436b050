import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { fillSignUpForm, newAccount, signUpOnScreen, type TestAccount } from './support/accounts';
import { seriousFindings } from './support/axe';
import { readCode } from './support/mail';
import { peoplePerTest, privateChat, signedInAs } from './support/people';
import { freePort, startServer, untilHealthy } from './support/server-process';

// Rough edges a new user and a new operator met: the site-admin role went to whoever registered first, verified
// or not; closed sign-ups showed the whole form and refused only after it was sent; Google and Facebook buttons
// did nothing.

const person = peoplePerTest();

const registration = (a: TestAccount) => ({
  first_name: a.first_name,
  last_name: a.last_name,
  username: a.username,
  email: a.email,
  password: a.password,
});

/** The screen as a person sees it, saved beside the test's results to be looked at. */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function expectAxeClean(page: Page) {
  expect(await seriousFindings(page)).toEqual([]);
}

/** A visitor's page on `baseURL` in one theme, at a phone's width or a desktop's. */
async function visitor(browser: Browser, baseURL: string, colorScheme: 'light' | 'dark', width = 390) {
  const context = await browser.newContext({ baseURL, colorScheme, viewport: { width, height: 844 } });
  return { context, page: await context.newPage() };
}

async function loginToken(request: APIRequestContext, a: TestAccount): Promise<string> {
  const login = await request.post('/api/users/login/', { data: { email: a.email, password: a.password } });
  expect(login.ok(), await login.text()).toBe(true);
  return (await login.json()).token;
}

test('a fresh server: the first account to verify is its admin; closed sign-ups say so before the form', async ({
  browser,
  playwright,
}) => {
  // A server of this test's own: on the suite's shared one, the first account is anyone's.
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const server = startServer(port, mkdtempSync(path.join(tmpdir(), 'parley-e2e-edges-')));
  const request = await playwright.request.newContext({ baseURL });
  try {
    await untilHealthy(request);

    // Registered first and never verified: no role for an address nobody proved.
    const early = newAccount('early');
    expect((await request.post('/api/users/register/', { data: registration(early) })).ok()).toBe(true);
    const owner = newAccount('owner');
    const own = await browser.newContext({ baseURL });
    const page = await own.newPage();
    await signUpOnScreen(page, owner);
    await page.getByLabel('Verification code').fill(await readCode(request, owner.email));
    await page.getByRole('button', { name: 'Verify Email' }).click();
    await expect(page.getByRole('link', { name: 'Admin', exact: true })).toBeVisible();
    const late = await request.post('/api/users/email/verify/signup/', {
      data: { email: early.email, verification_code: await readCode(request, early.email) },
    });
    expect((await late.json()).is_site_admin).toBe(false);
    await own.close();

    // The owner closes sign-ups: a visitor is told at once, with no form to fill in vain, and no dead buttons.
    const token = await loginToken(request, owner);
    const headers = { authorization: `Bearer ${token}` };
    expect((await request.put('/api/admin/settings/', { headers, data: { signups: 'closed' } })).ok()).toBe(
      true,
    );
    for (const theme of ['light', 'dark'] as const) {
      const { context, page: seen } = await visitor(browser, baseURL, theme);
      await seen.goto('/register');
      await expect(
        seen.getByText('Sign-ups are closed on this server. Ask its administrator for an invite link.'),
      ).toBeVisible();
      await expect(seen.getByLabel('First Name')).toHaveCount(0);
      await expect(seen.getByRole('button', { name: 'Sign Up', exact: true })).toHaveCount(0);
      await expect(seen.getByText('or continue with')).toHaveCount(0);
      await expectAxeClean(seen);
      await shot(seen, `closed-signups-${theme}`);
      // Nor on the Login tab: no Google or Facebook button while no provider is configured.
      await seen.getByRole('tab', { name: 'Login' }).click();
      await expect(seen.getByLabel('Email')).toBeVisible();
      await expect(seen.getByRole('link', { name: /Google|Facebook/ })).toHaveCount(0);
      await expect(seen.getByRole('button', { name: /Google|Facebook/ })).toHaveCount(0);
      await context.close();
    }

    // With an invite link about, the form asks for it; the link pasted whole is enough.
    const invite = await request.post('/api/admin/settings/invites/', { headers, data: {} });
    const { url } = await invite.json();
    const { context, page: guest } = await visitor(browser, baseURL, 'light', 1280);
    await guest.goto('/register');
    await expect(
      guest.getByText('Sign-ups are closed on this server. You can sign up with an invite link.'),
    ).toBeVisible();
    const invited = newAccount('invited');
    await fillSignUpForm(guest, invited);
    await guest.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(guest.getByText('Paste the invite link you were given.')).toBeVisible();
    await expectAxeClean(guest);
    await shot(guest, 'closed-signups-invite');
    await guest.getByLabel('Invite link').fill(url);
    await guest.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(guest.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await context.close();
  } finally {
    await request.dispose();
    server.kill('SIGKILL');
  }
});

type Box = { x: number; y: number; width: number; height: number };

/** The profile card's header holds the name, the username and the button side by side or stacked, none under another. */
async function expectHeaderFits(page: Page, who: TestAccount, button: string, name: string) {
  const header = page.getByRole('region', { name: /Maximiliana/ });
  await expect(header.getByRole('heading', { name: /Maximiliana/ })).toBeVisible();
  const boxOf = async (l: Locator): Promise<Box> => (await l.boundingBox())!;
  const card = await boxOf(header);
  const title = await boxOf(header.getByRole('heading', { name: /Maximiliana/ }));
  const username = await boxOf(header.getByText(`@${who.username}`));
  const action = await boxOf(header.getByRole(button === 'Message' ? 'button' : 'link', { name: button }));
  const inside = (b: Box) => b.x >= card.x - 0.5 && b.x + b.width <= card.x + card.width + 0.5;
  const apart = (a: Box, b: Box) =>
    a.x + a.width <= b.x || b.x + b.width <= a.x || a.y + a.height <= b.y || b.y + b.height <= a.y;
  await shot(page, name);
  expect(inside(title), 'the name stays inside the card').toBe(true);
  expect(inside(username), 'the username stays inside the card').toBe(true);
  expect(inside(action), 'the button stays inside the card').toBe(true);
  expect(apart(title, action), 'the name is not under the button').toBe(true);
  expect(apart(username, action), 'the username is not under the button').toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await expectAxeClean(page);
}

test('a long name keeps the profile header readable at 1280 and 390 px, in both themes', async ({
  browser,
  request,
}) => {
  // The longest name and username the server takes: words that wrap, and one that does not.
  const base = newAccount('longname');
  const long: TestAccount = {
    ...base,
    first_name: `Maximiliana ${'Wolfeschlegelsteinhausenbergerdorff'.repeat(3)}`.slice(0, 150),
    last_name: 'von Hohenzollern-Sigmaringen und Altenkirchen zu Schwarzenberg-Rosenheim'
      .repeat(2)
      .slice(0, 150),
    username: `${base.username}_${'x'.repeat(150)}`.slice(0, 150),
  };
  expect((await request.post('/api/users/register/', { data: registration(long) })).ok()).toBe(true);
  const verified = await request.post('/api/users/email/verify/signup/', {
    data: { email: long.email, verification_code: await readCode(request, long.email) },
  });
  expect(verified.ok()).toBe(true);

  for (const width of [1280, 390]) {
    for (const theme of ['light', 'dark'] as const) {
      const options = { viewport: { width, height: 900 }, colorScheme: theme };
      const { page } = await person(browser, request, 'viewer', options);
      await page.goto(`/user/${long.username}`);
      await expectHeaderFits(page, long, 'Message', `long-name-${width}-${theme}`);
    }
    // One's own profile has the same header, with Edit Profile and Refresh.
    const own = await signedInAs(browser, request, long, { viewport: { width, height: 900 } });
    await own.page.goto('/profile');
    await expectHeaderFits(own.page, long, 'Edit Profile', `long-name-own-${width}`);
    await own.context.close();
  }
});

/**
 * The browser's notification permission as the test sets it, with each Notification.requestPermission call
 * recorded for the page (true when a click was behind it); a call grants it.
 */
async function watchPermission(context: BrowserContext, initial: NotificationPermission) {
  await context.addInitScript((start) => {
    // Kept for the tab across page loads, as the browser keeps it for the site.
    let state = (sessionStorage.getItem('permission') as NotificationPermission | null) ?? start;
    const asks: boolean[] = [];
    Object.assign(window, { permissionAsks: asks });
    Object.defineProperty(Notification, 'permission', { get: () => state, configurable: true });
    Notification.requestPermission = async () => {
      asks.push(navigator.userActivation.isActive);
      state = 'granted';
      sessionStorage.setItem('permission', state);
      return state;
    };
  }, initial);
}
const asks = (page: Page) =>
  page.evaluate(() => (window as unknown as { permissionAsks: boolean[] }).permissionAsks);

/** /chats once its notification channel is open: what that part does by itself on load has been done. */
async function openChatList(page: Page) {
  const channel = page.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await page.goto('/chats');
  await channel;
  await expect(page.getByRole('heading', { name: 'My Chats' })).toBeVisible();
  // What the channel's part draws comes with the next frames.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

for (const theme of ['light', 'dark'] as const) {
  test(`notifications are offered and asked for only on a click (${theme})`, async ({ browser, request }) => {
    const { page, context } = await person(browser, request, 'notify', {
      viewport: { width: 390, height: 844 },
      colorScheme: theme,
    });
    await watchPermission(context, 'default');
    await openChatList(page);
    const offer = page.getByRole('region', { name: 'Get notified about new messages' });
    await expect(offer).toBeVisible();
    // The chat list, its notification channel and Web Push are all up: nobody asked the browser.
    expect(await asks(page)).toEqual([]);
    await expectAxeClean(page);
    await shot(page, `notification-offer-${theme}`);

    await offer.getByRole('button', { name: 'Turn on notifications' }).click();
    await expect(offer).toBeHidden();
    expect(await asks(page)).toEqual([true]);
    await page.goto('/settings');
    await expect(page.getByRole('switch', { name: 'Push Notifications' })).toBeChecked();
  });
}

test('Not now puts the offer away for this browser, and nothing is asked', async ({ browser, request }) => {
  const { page, context } = await person(browser, request, 'notnow');
  await watchPermission(context, 'default');
  await openChatList(page);
  const offer = page.getByRole('region', { name: 'Get notified about new messages' });
  await offer.getByRole('button', { name: 'Not now' }).click();
  await expect(offer).toBeHidden();
  await openChatList(page);
  await expect(offer).toHaveCount(0);
  expect(await asks(page)).toEqual([]);

  // Settings asks the browser from the switch itself.
  await page.goto('/settings');
  const push = page.getByRole('switch', { name: 'Push Notifications' });
  await expect(push).not.toBeChecked();
  await expect(page.getByText('Your browser will ask you to allow notifications.')).toBeVisible();
  await push.click();
  await expect(push).toBeChecked();
  expect(await asks(page)).toEqual([true]);
});

test('Settings shows Push Notifications off, with why, while the browser blocks notifications', async ({
  browser,
  request,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const { page, context } = await person(browser, request, 'blocked', { colorScheme: theme });
    await watchPermission(context, 'denied');
    await page.goto('/settings');
    const push = page.getByRole('switch', { name: 'Push Notifications' });
    await expect(push).not.toBeChecked();
    await expect(push).toBeDisabled();
    await expect(push).toHaveAccessibleDescription(
      /Notifications are blocked for Parley in this browser\. Allow them in the browser’s site settings/,
    );
    // The account's own choice is still on: another browser that allows them shows it on.
    const settings = await page.request.get('/api/users/profile/settings/', {
      headers: {
        authorization: `Bearer ${(await page.evaluate(() => localStorage.getItem('token'))) ?? ''}`,
      },
    });
    expect((await settings.json()).profile.push_notification).toBe(true);
    await expectAxeClean(page);
    await shot(page, `push-blocked-${theme}`);
    await openChatList(page);
    await expect(page.getByRole('region', { name: 'Get notified about new messages' })).toHaveCount(0);
    expect(await asks(page)).toEqual([]);
  }
});

test('an @mention in one’s own bubble passes axe’s contrast check in both themes', async ({
  browser,
  request,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const ada = await person(browser, request, 'ada', { colorScheme: theme });
    const grace = await person(browser, request, 'grace', { colorScheme: theme });
    await ada.page.goto(`/chats/${await privateChat(request, ada, grace)}`);
    const composer = ada.page.getByRole('textbox', { name: 'Message' });
    await composer.fill(`See you at six, @${grace.account.username}`);
    await ada.page.getByRole('button', { name: 'Send message' }).click();
    const chip = ada.page
      .getByRole('region', { name: 'Messages' })
      .getByRole('link', { name: `@${grace.account.username}` });
    await expect(chip).toBeVisible();
    // Stored (no longer pending): the bubble is drawn as it stays.
    await expect(ada.page.getByRole('img', { name: /^(Sent|Delivered|Read)$/ })).toBeVisible();
    expect(await seriousFindings(ada.page, '[data-testid="message-body"]')).toEqual([]);
    await ada.page
      .getByRole('region', { name: 'Messages' })
      .screenshot({ path: test.info().outputPath(`mention-${theme}.png`) });
  }
});
