import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { GROUP_INVITE_INVALID } from '@parley/protocol';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { fillSignUpForm, newAccount } from './support/accounts';
import { seriousFindings } from './support/axe';
import { readCode } from './support/mail';
import { fullName, groupChat, type Person, peoplePerTest } from './support/people';

// Group invite links and roles: an admin makes a link for a private group and copies it, a signed-out person
// comes in through it by signing up; revoked and used-up links say so; the owner makes a member an admin, who
// gets the admins' screen at once, and hands the group over.

const person = peoplePerTest();
const SHOTS = process.env.PARLEY_E2E_SHOTS ?? path.join(import.meta.dirname, '..', 'test-results', 'screens');

/**
 * A page's first screen after its first load: a fresh browser context downloads the app and starts its service
 * worker, which on a busy two-core machine has taken past the usual ceiling.
 */
const firstScreen = (locator: Locator) => expect(locator).toBeVisible({ timeout: 60_000 });
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text).first();
const connected = (page: Page) => firstScreen(page.locator('[data-status="connected"]'));
const inviteLinks = (page: Page) => page.getByTestId('invite-links');
const memberRow = (page: Page, who: Person) =>
  page
    .getByTestId('member-list')
    .getByRole('listitem')
    .filter({ hasText: `@${who.account.username}` });

async function send(page: Page, text: string) {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(messages(page).getByText(text)).toBeVisible();
}

/** Makes a link on the settings screen already open; answers its URL as the list shows it. */
async function createLink(page: Page, { expires, maxUses }: { expires?: string; maxUses?: string } = {}) {
  const before = await inviteLinks(page)
    .getByRole('listitem')
    .count()
    .catch(() => 0);
  if (expires) await page.getByLabel('Expires after').selectOption({ label: expires });
  if (maxUses) await page.getByLabel('Max uses').fill(maxUses);
  await page.getByRole('button', { name: 'Create link' }).click();
  await expect(toast(page, 'Invite link created')).toBeVisible();
  await expect(inviteLinks(page).getByRole('listitem')).toHaveCount(before + 1);
  return (await inviteLinks(page).getByTestId('invite-url').first().textContent()) ?? '';
}

/** A link made through the API by `admin`. */
async function apiLink(request: APIRequestContext, admin: Person, chatId: string, data: object = {}) {
  const res = await request.post(`/api/chats/${chatId}/invites/`, {
    headers: { Authorization: `Bearer ${admin.token}` },
    data,
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { code: string; url: string };
}

test('a signed-out person signs up through a private group link, lands in the group and its members see it', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const crew = `Crew ${Date.now().toString(36)}`;
  const chatId = await groupChat(request, ada, crew, [grace]);
  await grace.page.goto(`/groups/${chatId}`);
  await connected(grace.page);
  await send(grace.page, 'History from before the invite');

  // Ada, the owner, makes a link lasting a day for at most five people, and copies it.
  await ada.context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await ada.page.goto(`/groups/${chatId}/settings`);
  await firstScreen(ada.page.getByRole('heading', { name: 'Invite links' }));
  await expect(ada.page.getByText('No invite links yet.')).toBeVisible();
  await ada.page.getByLabel('Max uses').fill('0');
  await ada.page.getByRole('button', { name: 'Create link' }).click();
  await expect(ada.page.getByText('Enter a whole number from 1 to 1000, or leave it empty.')).toBeVisible();
  await expect(ada.page.getByLabel('Max uses')).toBeFocused();
  const shown = await createLink(ada.page, { expires: '1 day', maxUses: '5' });
  expect(shown).toMatch(/\/join\/[\w-]{20,}$/);
  const row = inviteLinks(ada.page).getByRole('listitem').first();
  await expect(row).toContainText('Expires in 24 hours · 0 of 5 uses');
  // The new link's Copy button has the focus: Enter copies it.
  await expect(row.getByRole('button', { name: 'Copy' })).toBeFocused();
  await ada.page.keyboard.press('Enter');
  await expect(row.getByRole('status')).toHaveText('Copied');
  const url = await ada.page.evaluate(() => navigator.clipboard.readText());
  expect(url).toBe(shown);

  // Someone signed out opens it: asked to sign up or log in first, then taken through sign-up and the code.
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto(new URL(url).pathname);
    await firstScreen(page.getByRole('heading', { name: "You're invited to a group" }));
    await page.getByRole('link', { name: 'Sign Up', exact: true }).click();
    await expect(page).toHaveURL(/\/register$/);
    const alan = newAccount('alan');
    await fillSignUpForm(page, alan);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await page.getByLabel('Verification code').fill(await readCode(request, alan.email));
    await page.getByRole('button', { name: 'Verify Email' }).click();

    // Back on the link: the group, its picture and members, and Join.
    await expect(page).toHaveURL(new URL(url).pathname);
    await expect(page.getByRole('heading', { name: crew })).toBeVisible();
    await expect(page.getByTestId('invite-members')).toHaveText('2 members · Private group');
    await page.getByRole('button', { name: 'Join group' }).click();
    await expect(page).toHaveURL(`/groups/${chatId}`);
    await expect(messages(page).getByText('History from before the invite')).toBeVisible();

    // The members see who came in, live.
    const joined = `${alan.first_name} ${alan.last_name} joined`;
    await expect(messages(grace.page).getByText(joined)).toBeVisible();
    await expect(messages(page).getByText(joined)).toBeVisible();
  } finally {
    await visitor.close();
  }

  // The link counts the use.
  await ada.page.reload();
  await expect(inviteLinks(ada.page).getByRole('listitem').first()).toContainText('1 of 5 uses');
  await expect(ada.page.getByTestId('member-count')).toHaveText('3 members');
});

test('a signed-out person who logs in through a link comes back to it', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  const chatId = await groupChat(request, ada, `Login crew ${Date.now().toString(36)}`, [alan]);
  const { url } = await apiLink(request, ada, chatId);
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto(new URL(url).pathname);
    await firstScreen(page.getByRole('heading', { name: "You're invited to a group" }));
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await page.getByLabel('Email').fill(grace.account.email);
    await page.getByLabel('Password', { exact: true }).fill(grace.account.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(new URL(url).pathname);
    await page.getByRole('button', { name: 'Join group' }).click();
    await expect(page).toHaveURL(`/groups/${chatId}`);
  } finally {
    await visitor.close();
  }
});

test('revoked, used-up and unknown links say the link is invalid', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  const bob = await person(browser, request, 'bob');
  const chatId = await groupChat(request, ada, `Closed crew ${Date.now().toString(36)}`, [bob]);

  // Ada revokes a link on the settings screen, after a confirmation.
  await ada.page.goto(`/groups/${chatId}/settings`);
  await firstScreen(ada.page.getByRole('heading', { name: 'Invite links' }));
  const revoked = await createLink(ada.page, { expires: 'Never' });
  await expect(inviteLinks(ada.page).getByRole('listitem').first()).toContainText('Never expires · 0 uses');
  await grace.page.goto(new URL(revoked).pathname);
  await firstScreen(grace.page.getByRole('button', { name: 'Join group' }));
  await inviteLinks(ada.page).getByRole('button', { name: 'Revoke' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Revoke invite link?' });
  await dialog.getByRole('button', { name: 'Revoke link' }).click();
  await expect(toast(ada.page, 'Invite link revoked')).toBeVisible();
  await expect(ada.page.getByText('No invite links yet.')).toBeVisible();

  // Grace had it open: Join now says it is invalid; opened again, so does the page.
  await grace.page.getByRole('button', { name: 'Join group' }).click();
  await expect(grace.page.getByRole('heading', { name: GROUP_INVITE_INVALID })).toBeVisible();
  await grace.page.goto(new URL(revoked).pathname);
  await expect(grace.page.getByRole('heading', { name: GROUP_INVITE_INVALID })).toBeVisible();

  // A link for one person: Grace uses it, Alan comes too late.
  const single = await apiLink(request, ada, chatId, { max_uses: 1 });
  await grace.page.goto(new URL(single.url).pathname);
  await grace.page.getByRole('button', { name: 'Join group' }).click();
  await expect(grace.page).toHaveURL(`/groups/${chatId}`);
  await alan.page.goto(new URL(single.url).pathname);
  await firstScreen(alan.page.getByRole('heading', { name: GROUP_INVITE_INVALID }));
  await alan.page.goto('/join/no-such-code-at-all');
  await expect(alan.page.getByRole('heading', { name: GROUP_INVITE_INVALID })).toBeVisible();
});

test('the owner makes a member an admin, who gets the admin controls at once, then hands the group over', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  const chatId = await groupChat(request, ada, `Role crew ${Date.now().toString(36)}`, [grace, alan]);

  await ada.page.goto(`/groups/${chatId}/settings`);
  await firstScreen(memberRow(ada.page, ada));
  await expect(memberRow(ada.page, ada)).toContainText('Owner');
  await grace.page.goto(`/groups/${chatId}/settings`);
  await firstScreen(grace.page.getByRole('heading', { name: 'Group Chat Settings' }));
  await expect(grace.page.getByRole('button', { name: /^Role of / })).toHaveCount(0);

  // Ada opens Grace's role menu from the keyboard and makes her an admin.
  const graceMenu = memberRow(ada.page, grace).getByRole('button', { name: `Role of ${fullName(grace)}` });
  await graceMenu.focus();
  await ada.page.keyboard.press('Enter');
  const menu = ada.page.getByRole('menu', { name: `Role of ${fullName(grace)}` });
  await expect(menu.getByRole('menuitem', { name: 'Make admin' })).toBeFocused();
  await ada.page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'Transfer ownership' })).toBeFocused();
  await ada.page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(graceMenu).toBeFocused();
  await ada.page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Make admin' })).toBeFocused();
  await ada.page.keyboard.press('Enter');
  await expect(toast(ada.page, `${fullName(grace)} is now an admin`)).toBeVisible();
  await expect(memberRow(ada.page, grace)).toContainText('Admin');

  // Grace, watching her settings, gets the admins' screen without reloading: invite links, role menus (none on
  // the owner), and may revoke.
  await expect(grace.page.getByRole('heading', { name: 'Manage Chat Room' })).toBeVisible();
  await expect(grace.page.getByRole('heading', { name: 'Invite links' })).toBeVisible();
  await expect(memberRow(grace.page, ada).getByRole('button', { name: /^Role of / })).toHaveCount(0);
  await memberRow(grace.page, alan)
    .getByRole('button', { name: `Role of ${fullName(alan)}` })
    .click();
  const alanMenu = grace.page.getByRole('menu', { name: `Role of ${fullName(alan)}` });
  await expect(alanMenu.getByRole('menuitem')).toHaveText(['Make admin']);
  await grace.page.keyboard.press('Escape');

  // Ada hands the group to Grace, after a confirmation; she stays an admin.
  await memberRow(ada.page, grace)
    .getByRole('button', { name: `Role of ${fullName(grace)}` })
    .click();
  await ada.page.getByRole('menuitem', { name: 'Transfer ownership' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'Transfer ownership?' });
  await expect(dialog).toContainText(`${fullName(grace)} will own`);
  await dialog.getByRole('button', { name: 'Transfer ownership' }).click();
  await expect(toast(ada.page, `${fullName(grace)} now owns the group`)).toBeVisible();
  await expect(memberRow(ada.page, grace)).toContainText('Owner');
  await expect(memberRow(ada.page, ada)).toContainText('Admin');
  await expect(memberRow(ada.page, grace).getByRole('button', { name: /^Role of / })).toHaveCount(0);

  // Grace, now the owner, may demote Ada or hand the group back.
  await expect(memberRow(grace.page, grace)).toContainText('Owner');
  await memberRow(grace.page, ada)
    .getByRole('button', { name: `Role of ${fullName(ada)}` })
    .click();
  await expect(grace.page.getByRole('menu').getByRole('menuitem')).toHaveText([
    'Remove as admin',
    'Transfer ownership',
  ]);
  await grace.page.getByRole('menuitem', { name: 'Remove as admin' }).click();
  await expect(toast(grace.page, `${fullName(ada)} is no longer an admin`)).toBeVisible();
  // Ada, a member now, gets the members' screen.
  await expect(ada.page.getByRole('heading', { name: 'Group Chat Settings' })).toBeVisible();
});

test('the join page and the settings sections pass axe in light and dark, at 1280 and 390 px', async ({
  browser,
  request,
}) => {
  // Four screens at two widths in two themes: sixteen scans, three times the usual ceiling.
  test.slow();
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await groupChat(request, ada, 'Contrast crew', [grace]);
  const { url } = await apiLink(request, ada, chatId, { expires_in_hours: 168, max_uses: 10 });
  await apiLink(request, ada, chatId);
  const alan = await person(browser, request, 'alan');
  mkdirSync(SHOTS, { recursive: true });

  for (const width of [1280, 390]) {
    const viewport = { width, height: width > 800 ? 800 : 844 };
    for (const colorScheme of ['light', 'dark'] as const) {
      const tag = `${width}-${colorScheme}`;
      for (const page of [ada.page, alan.page]) {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme });
      }

      await ada.page.goto(`/groups/${chatId}/settings`);
      await firstScreen(inviteLinks(ada.page));
      await expect(inviteLinks(ada.page).getByRole('listitem')).toHaveCount(2);
      await ada.page.getByRole('heading', { name: 'Invite links' }).scrollIntoViewIfNeeded();
      await ada.page.screenshot({ path: path.join(SHOTS, `${tag}-invite-links.png`), fullPage: true });
      expect(await seriousFindings(ada.page), `settings ${tag}`).toEqual([]);
      await memberRow(ada.page, grace)
        .getByRole('button', { name: /^Role of / })
        .click();
      await expect(ada.page.getByRole('menu')).toBeVisible();
      await ada.page.screenshot({ path: path.join(SHOTS, `${tag}-role-menu.png`) });
      expect(await seriousFindings(ada.page), `role menu ${tag}`).toEqual([]);
      await ada.page.keyboard.press('Escape');

      await alan.page.goto(new URL(url).pathname);
      await firstScreen(alan.page.getByRole('button', { name: 'Join group' }));
      await alan.page.screenshot({ path: path.join(SHOTS, `${tag}-join.png`) });
      expect(await seriousFindings(alan.page), `join ${tag}`).toEqual([]);

      await alan.page.goto('/join/revoked-or-never-made');
      await expect(alan.page.getByRole('heading', { name: GROUP_INVITE_INVALID })).toBeVisible();
      expect(await seriousFindings(alan.page), `invalid ${tag}`).toEqual([]);

      // Someone signed out, in a browser of their own.
      const visitor = await browser.newContext({ viewport, colorScheme });
      try {
        const outsider = await visitor.newPage();
        await outsider.goto(new URL(url).pathname);
        await firstScreen(outsider.getByRole('heading', { name: "You're invited to a group" }));
        await outsider.screenshot({ path: path.join(SHOTS, `${tag}-join-signed-out.png`) });
        expect(await seriousFindings(outsider), `signed out ${tag}`).toEqual([]);
      } finally {
        await visitor.close();
      }
    }
  }
});
