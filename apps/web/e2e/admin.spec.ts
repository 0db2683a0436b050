import { BOT_TEXT } from '@parley/protocol';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts';
import { grantAdmin } from './support/admin';
import { seriousFindings } from './support/axe';
import { fullName, type Person, peoplePerTest, privateChat, signedInPerson } from './support/people';
import { onOwnServer } from './support/server-process';

// The /admin console, for operators. A site admin is made with the operator command, as on any server (the first
// account of this shared e2e server may be anyone's); an admin deactivates a person who is chatting and that
// person is signed out live; each of the console's screens is axe-clean in both themes.
const person = peoplePerTest();

/** A signed-in person made a site admin by the command, then signed in again so the stored user says so. */
async function asSiteAdmin(request: APIRequestContext, admin: Person): Promise<Person> {
  await grantAdmin(admin.account.username);
  const login = await request.post('/api/users/login/', {
    data: { email: admin.account.email, password: admin.account.password, remember_me: true },
  });
  const { token, ...user } = await login.json();
  expect(user.is_site_admin).toBe(true);
  await admin.page.goto('/');
  await admin.page.evaluate(
    ({ t, u }) => {
      window.localStorage.setItem('token', t);
      window.localStorage.setItem('user', u);
    },
    { t: token as string, u: JSON.stringify(user) },
  );
  return { ...admin, token, user };
}

test('an admin deactivates a person who is chatting, who is signed out live', async ({
  browser,
  request,
}) => {
  const admin = await asSiteAdmin(request, await person(browser, request, 'admin'));
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);

  await ada.page.goto(`/chats/${chatId}`);
  const composer = ada.page.getByRole('textbox', { name: 'Message' });
  await composer.fill('Hello Grace');
  await ada.page.getByRole('button', { name: 'Send message' }).click();
  await expect(ada.page.getByRole('region', { name: 'Messages' }).getByText('Hello Grace')).toBeVisible();

  await admin.page.goto('/');
  await admin.page.getByRole('link', { name: 'Admin', exact: true }).click();
  await expect(admin.page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();
  await admin.page.getByRole('tab', { name: 'People' }).click();
  await admin.page.getByRole('searchbox', { name: 'Search people by name or email' }).fill(ada.account.email);
  const deactivate = admin.page.getByRole('button', {
    name: `Deactivate: ${fullName(ada)} (@${ada.account.username})`,
  });
  await deactivate.click();
  const dialog = admin.page.getByRole('dialog');
  await dialog.getByLabel('Note (kept in the audit log)').fill('Testing the console');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(dialog).toBeHidden();
  await expect(admin.page.getByText('Inactive')).toBeVisible();

  // Ada, mid-conversation, is signed out at once and cannot sign in again.
  await expect(ada.page).toHaveURL(/\/login/);
  const refused = await request.post('/api/users/login/', {
    data: { email: ada.account.email, password: ada.account.password },
  });
  expect(refused.status()).toBe(403);

  // The audit log has it, with the note.
  await admin.page.getByRole('tab', { name: 'Audit log' }).click();
  await admin.page.getByLabel('Person (username)').fill(ada.account.username);
  await expect(admin.page.getByRole('cell', { name: 'admin.user.deactivated' })).toBeVisible();
  await expect(admin.page.getByText('note: Testing the console')).toBeVisible();

  // Reactivated, she signs in again.
  await admin.page.getByRole('tab', { name: 'People' }).click();
  await admin.page.getByRole('searchbox', { name: 'Search people by name or email' }).fill(ada.account.email);
  await admin.page
    .getByRole('button', { name: `Reactivate: ${fullName(ada)} (@${ada.account.username})` })
    .click();
  await admin.page.getByRole('dialog').getByRole('button', { name: 'Reactivate' }).click();
  await expect(admin.page.getByText('Inactive')).toBeHidden();
  const back = await request.post('/api/users/login/', {
    data: { email: ada.account.email, password: ada.account.password },
  });
  expect(back.status()).toBe(200);
});

test('someone who is not a site admin gets the 404 page at /admin, and no Admin link', async ({
  browser,
  request,
}) => {
  // On a fresh server the first account to verify its email becomes the site admin: one has, before Someone.
  await createVerifiedAccount(request, 'earlier');
  const someone = await person(browser, request, 'someone');
  await someone.page.goto('/admin');
  await expect(someone.page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(someone.page.getByRole('link', { name: 'Admin', exact: true })).toHaveCount(0);
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await visitor.close();
});

test("a site admin's header, one item longer, fits a 390 px phone", async ({ browser, request }) => {
  const admin = await asSiteAdmin(request, await person(browser, request, 'admin'));
  await admin.page.setViewportSize({ width: 390, height: 800 });
  await admin.page.goto('/chats');
  await expect(admin.page.getByRole('link', { name: 'Admin', exact: true })).toBeVisible({ timeout: 30_000 });
  const overflow = await admin.page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBe(0);
  await expect(admin.page.getByRole('button', { name: 'Log out' })).toBeInViewport();
});

test('an admin keeps bots to site admins; a person is then told so', async ({ browser, playwright }) => {
  // A server of its own: the setting is the whole site's, and other journeys make bots meanwhile.
  await onOwnServer(playwright, 'bot-creators', async ({ baseURL, request }) => {
    // The first verified account on a fresh server is its site admin.
    const admin = await signedInPerson(browser, request, 'admin', { baseURL });
    const ada = await signedInPerson(browser, request, 'ada', { baseURL });
    await admin.page.goto('/admin');
    await admin.page.getByRole('tab', { name: 'Server settings' }).click();
    const bots = admin.page
      .locator('form')
      .filter({ has: admin.page.getByRole('button', { name: 'Save bots' }) });
    await expect(bots.getByLabel(/Everyone/)).toBeChecked();
    await bots.getByLabel(/Site admins only/).check();
    await bots.getByRole('button', { name: 'Save bots' }).click();
    await expect(bots.getByRole('status')).toHaveText('Saved.');

    await ada.page.goto('/settings');
    const form = ada.page.getByRole('form', { name: 'New bot' });
    await form.getByLabel('Username', { exact: true }).fill('ada-bot');
    await form.getByLabel('Name', { exact: true }).fill('Ada bot');
    await form.getByRole('button', { name: 'Create bot' }).click();
    await expect(ada.page.getByText(BOT_TEXT.noBots)).toBeVisible();
    await Promise.all([admin.context.close(), ada.context.close()]);
  });
});

/** A site admin, and a reported message to show in the queue. */
async function consoleWorld(browser: Browser, request: APIRequestContext, colorScheme: 'light' | 'dark') {
  const admin = await asSiteAdmin(request, await signedInPerson(browser, request, 'admin', { colorScheme }));
  // Each screen opens a page of its own in the admin's context.
  await admin.page.close();
  const ada = await signedInPerson(browser, request, 'ada');
  const grace = await signedInPerson(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await ada.page.goto(`/chats/${chatId}`);
  await ada.page.getByRole('textbox', { name: 'Message' }).fill('Buy cheap watches');
  await ada.page.getByRole('button', { name: 'Send message' }).click();
  await expect(
    ada.page.getByRole('region', { name: 'Messages' }).getByText('Buy cheap watches'),
  ).toBeVisible();
  // The bubble shows while the message is still on its way: the history has it once it is stored.
  let message: { id: number } | undefined;
  await expect
    .poll(async () => {
      const history = await request.get(`/api/chats/${chatId}/messages/`, {
        headers: { Authorization: `Bearer ${grace.token}` },
      });
      const body = await history.json();
      message = (body.results ?? body).find((m: { body: string }) => m.body === 'Buy cheap watches');
      return message?.id;
    })
    .toBeDefined();
  const reported = await request.post('/api/reports/', {
    headers: { Authorization: `Bearer ${grace.token}` },
    data: { message_id: message?.id, reason: 'spam', note: 'Selling things' },
  });
  expect(reported.ok(), await reported.text()).toBe(true);
  await Promise.all([ada.context.close(), grace.context.close()]);
  return admin;
}

async function tableOf(page: Page, tab: string) {
  await page.getByRole('tab', { name: tab }).click();
  await expect(page.getByRole('table')).toBeVisible();
}

/** A screen of the console: its tab opened and made ready. */
const consoleScreens: Array<{ screen: string; ready: (page: Page) => Promise<void> }> = [
  {
    screen: 'overview',
    ready: (page) => expect(page.getByRole('img', { name: /Messages per day/ })).toBeVisible(),
  },
  { screen: 'people', ready: (page) => tableOf(page, 'People') },
  {
    screen: 'action dialog',
    ready: async (page) => {
      await page.getByRole('tab', { name: 'People' }).click();
      await page
        .getByRole('button', { name: /^Verify: / })
        .first()
        .click();
      await expect(page.getByRole('dialog')).toBeVisible();
    },
  },
  {
    screen: 'reports',
    ready: async (page) => {
      await page.getByRole('tab', { name: 'Reports' }).click();
      await expect(page.getByText('Buy cheap watches').first()).toBeVisible();
      await page.getByRole('button', { name: 'Show in context' }).first().click();
    },
  },
  { screen: 'audit log', ready: (page) => tableOf(page, 'Audit log') },
  {
    screen: 'settings',
    ready: async (page) => {
      await page.getByRole('tab', { name: 'Server settings' }).click();
      await page.getByRole('button', { name: 'Create invite link' }).click();
      await expect(page.getByRole('list', { name: 'Invite links' })).toBeVisible();
    },
  },
];

for (const theme of ['light', 'dark'] as const) {
  test.describe(`the console's screens are axe-clean in the ${theme} theme`, () => {
    // One admin for the theme's screens, in one worker; a screen scanned on a busy machine takes a while.
    test.describe.configure({ mode: 'default', timeout: 180_000 });
    let request: APIRequestContext;
    let admin: Person;
    test.beforeAll(async ({ browser, playwright }, info) => {
      test.setTimeout(180_000);
      request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
      admin = await consoleWorld(browser, request, theme);
    });
    test.afterAll(async () => {
      await admin?.context.close();
      await request?.dispose();
    });

    for (const { screen, ready } of consoleScreens) {
      test(screen, async () => {
        const page = await admin.context.newPage();
        try {
          await page.goto('/admin');
          await ready(page);
          expect(await seriousFindings(page), screen).toEqual([]);
        } finally {
          await page.close();
        }
      });
    }
  });
}
