import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { pngOf } from '@parley/fixtures';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { newAccount } from './support/accounts';
import { fullName, type Person, peoplePerTest, privateChat } from './support/people';

// Issue 12: axe finds nothing serious or critical on any screen, in the light and the dark theme, at 1280 and
// 390 px wide. Each screen is also photographed (test-results/screens/) for a person to look at.
const person = peoplePerTest();
const SHOTS = process.env.PARLEY_E2E_SHOTS ?? path.join(import.meta.dirname, '..', 'test-results', 'screens');

interface Violation {
  screen: string;
  rule: string;
  impact: string | null | undefined;
  targets: string[];
}

async function audit(page: Page, screen: string, tag: string, found: Violation[]) {
  // Let transitions and lazy pictures settle, so colours are measured as a person sees them.
  await page.waitForTimeout(300);
  const result = await new AxeBuilder({ page }).analyze();
  for (const v of result.violations) {
    if (v.impact !== 'serious' && v.impact !== 'critical') continue;
    found.push({
      screen,
      rule: v.id,
      impact: v.impact,
      targets: v.nodes
        .slice(0, 5)
        .map((n) => `${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1] ?? ''}`),
    });
  }
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${tag}-${screen}.png`), fullPage: false });
}

async function group(request: APIRequestContext, admin: Person, name: string, member: Person) {
  const headers = { Authorization: `Bearer ${admin.token}` };
  const res = await request.post('/api/chats/group/new/', { headers, data: { group_name: name } });
  expect(res.ok(), await res.text()).toBe(true);
  const chatId = (await res.json()).chat_id as string;
  const added = await request.post(`/api/chats/${chatId}/members/`, {
    headers,
    data: { members: [member.account.username] },
  });
  expect(added.ok(), await added.text()).toBe(true);
  return chatId;
}

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('region', { name: 'Messages' }).getByText(text)).toBeVisible();
}

async function everyScreen(
  browser: Browser,
  request: APIRequestContext,
  width: number,
  theme: 'light' | 'dark',
) {
  const viewport = { width, height: width > 1000 ? 800 : 844 };
  const tag = `${theme}-${width}`;
  const ada = await person(browser, request, 'ada', { viewport });
  const grace = await person(browser, request, 'grace', { viewport });
  const chatId = await privateChat(request, ada, grace);
  const groupId = await group(request, ada, 'Contrast club', grace);
  for (const p of [ada, grace]) await p.page.emulateMedia({ colorScheme: theme });

  // Messages both ways (own bubbles carry times and ticks), a picture, and some unread for the list.
  await grace.page.goto(`/chats/${chatId}`);
  await send(grace.page, 'Hello Ada, a message from Grace');
  await grace.page.locator('input[type="file"]').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: pngOf(320, 200),
  });
  await grace.page.getByRole('button', { name: 'Send message' }).click();
  await expect(
    grace.page.getByRole('region', { name: 'Messages' }).locator('[data-message-id] img').first(),
  ).toBeVisible();
  await expect(grace.page.getByRole('img', { name: /^(Sent|Delivered)$/ }).last()).toBeVisible();
  await grace.page.goto(`/groups/${groupId}`);
  await send(grace.page, 'Group hello from Grace');

  const found: Violation[] = [];
  const { page } = ada;
  const visit = async (screen: string, url: string, ready: () => Promise<void>) => {
    await page.goto(url);
    await ready();
    await audit(page, screen, tag, found);
  };

  await visit('home', '/', () => expect(page.getByRole('heading', { level: 1 })).toBeVisible());
  await visit('chats', '/chats', () =>
    expect(page.getByRole('link', { name: /Contrast club/ })).toContainText('Group hello from Grace'),
  );
  await visit('chat-room', `/chats/${chatId}`, async () => {
    await send(page, 'And a reply from Ada');
    await expect(
      page.getByRole('region', { name: 'Messages' }).locator('[data-message-id] img').first(),
    ).toBeVisible();
  });
  await page.getByRole('button', { name: 'Message actions' }).last().click();
  await audit(page, 'message-menu', tag, found);
  await page.keyboard.press('Escape');
  await visit('chat-settings', `/chats/${chatId}/settings`, () =>
    expect(page.getByRole('heading', { name: 'Chat Settings' })).toBeVisible(),
  );
  await visit('group-room', `/groups/${groupId}`, () =>
    expect(page.getByRole('region', { name: 'Messages' }).getByText('Group hello from Grace')).toBeVisible(),
  );
  await visit('group-settings', `/groups/${groupId}/settings`, () =>
    expect(page.getByRole('heading', { name: 'Manage Chat Room' })).toBeVisible(),
  );
  await visit('profile', '/profile', () =>
    expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible(),
  );
  await visit('profile-edit', '/profile/edit', () =>
    expect(page.getByRole('heading', { name: 'Edit your Profile' })).toBeVisible(),
  );
  await visit('public-profile', `/user/${grace.account.username}`, () =>
    expect(page.getByRole('heading', { name: fullName(grace) })).toBeVisible(),
  );
  await visit('settings', '/settings', () =>
    expect(page.getByRole('heading', { name: 'Account Settings' })).toBeVisible(),
  );
  await visit('not-found', '/no-such-page', () =>
    expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible(),
  );
  await page.goto('/chats');
  await page.getByRole('button', { name: 'New Group' }).click();
  await expect(page.getByRole('dialog', { name: 'New Group' })).toBeVisible();
  await audit(page, 'new-group', tag, found);
  await page.keyboard.press('Escape');
  await page.keyboard.press('ControlOrMeta+k');
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.type('Grace');
  await expect(page.getByRole('option').first()).toBeVisible();
  await audit(page, 'search', tag, found);
  await page.keyboard.press('Escape');

  // Signed out: the landing page and the account screens.
  const visitor = await browser.newContext({ viewport, colorScheme: theme });
  const v = await visitor.newPage();
  const visitOut = async (screen: string, url: string, ready: () => Promise<void>) => {
    await v.goto(url);
    await ready();
    await audit(v, screen, tag, found);
  };
  await visitOut('coming-soon', '/coming-soon', () => expect(v.getByRole('contentinfo')).toBeVisible());
  await visitOut('login', '/login', () => expect(v.getByRole('tab', { name: 'Login' })).toBeVisible());
  await visitOut('register', '/register', () =>
    expect(v.getByRole('tab', { name: 'Sign Up' })).toBeVisible(),
  );
  await v.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await audit(v, 'register-errors', tag, found);
  await visitOut('reset-password', '/reset-password', () => expect(v.getByLabel('Email')).toBeVisible());
  // The verify screen, reached as a new person does: by signing up.
  const fresh = newAccount('vera');
  await v.goto('/register');
  await v.getByLabel('First Name').fill(fresh.first_name);
  await v.getByLabel('Last Name').fill(fresh.last_name);
  await v.getByLabel('Username').fill(fresh.username);
  await v.getByLabel('Email').fill(fresh.email);
  await v.getByLabel('Password', { exact: true }).fill(fresh.password);
  await v.getByLabel('Confirm Password').fill(fresh.password);
  await v.getByRole('button', { name: 'Sign Up', exact: true }).click();
  await expect(v.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await audit(v, 'verify-email', tag, found);
  await visitor.close();

  expect(found, JSON.stringify(found, null, 2)).toEqual([]);
}

for (const width of [1280, 390]) {
  for (const theme of ['light', 'dark'] as const) {
    test(`every screen is axe-clean (serious, critical) in the ${theme} theme at ${width} px`, async ({
      browser,
      request,
    }) => {
      test.setTimeout(180_000);
      await everyScreen(browser, request, width, theme);
    });
  }
}
