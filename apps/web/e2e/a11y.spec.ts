import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pngOf } from '@parley/fixtures';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { newAccount, signUpOnScreen } from './support/accounts';
import { seriousFindings } from './support/axe';
import { fullName, groupChat, type Person, privateChat, signedInPerson } from './support/people';
import { openMessageMenu } from './support/room';

// axe finds nothing serious or critical on any screen, in the light and the dark theme, at 1280 and 390 px wide:
// one test a screen and width, scanned in the light theme and then, the device's setting switched, in the dark
// one (a page loaded once for both). Each is also photographed (test-results/screens/) for a person to look at.
const SHOTS = process.env.PARLEY_E2E_SHOTS ?? path.join(import.meta.dirname, '..', 'test-results', 'screens');

/** Two people who have talked, in a private chat and a group, seen at one width in one theme. */
interface World {
  ada: Person;
  grace: Person;
  chatId: string;
  groupId: string;
}

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const pictureInRoom = (page: Page) =>
  page.getByRole('region', { name: 'Messages' }).locator('[data-message-id] img').first();
async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('region', { name: 'Messages' }).getByText(text)).toBeVisible();
}

async function seed(
  browser: Browser,
  request: APIRequestContext,
  options: { viewport: { width: number; height: number } },
): Promise<World> {
  const ada = await signedInPerson(browser, request, 'ada', options);
  const grace = await signedInPerson(browser, request, 'grace', options);
  const chatId = await privateChat(request, ada, grace);
  const groupId = await groupChat(request, ada, 'Contrast club', [grace]);

  // Messages both ways (own bubbles carry times and ticks), a picture, and some unread for the list.
  await grace.page.goto(`/chats/${chatId}`);
  await send(grace.page, 'Hello Ada, a message from Grace');
  await grace.page.locator('input[type="file"]').setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: pngOf(320, 200),
  });
  await grace.page.getByRole('button', { name: 'Send message' }).click();
  await expect(pictureInRoom(grace.page)).toBeVisible();
  await expect(grace.page.getByRole('img', { name: /^(Sent|Delivered)$/ }).last()).toBeVisible();
  await grace.page.goto(`/groups/${groupId}`);
  await send(grace.page, 'Group hello from Grace');
  return { ada, grace, chatId, groupId };
}

/**
 * Scans the page as it is in the light theme, then in the dark one (the device's setting switched, which the app
 * follows live), and photographs it in each; nothing serious may be found in either.
 */
async function audit(page: Page, screen: string, width: number) {
  mkdirSync(SHOTS, { recursive: true });
  const found: Record<string, string[]> = {};
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?![\s\S]*\bdark\b)/);
    found[theme] = await seriousFindings(page);
    await page.screenshot({ path: path.join(SHOTS, `${theme}-${width}-${screen}.png`), fullPage: false });
  }
  expect(found, `${screen} at ${width} px`).toEqual({ light: [], dark: [] });
}

const heading = (name: string) => (page: Page) => expect(page.getByRole('heading', { name })).toBeVisible();

/** Opens `url` and waits until `shown` is there. */
const opened = (url: string, shown: (page: Page) => Locator) => async (page: Page) => {
  await page.goto(url);
  await expect(shown(page)).toBeVisible();
};
const signUpTab = (page: Page) => page.getByRole('tab', { name: 'Sign Up' });

/** A screen of Ada's: opened at its address, made ready, then scanned. */
interface SignedInScreen {
  screen: string;
  url: (w: World) => string;
  ready: (page: Page, w: World) => Promise<void>;
}

// In the order a person meets them: the chat list while its messages are still unread, then the rooms.
const signedInScreens: SignedInScreen[] = [
  {
    screen: 'home',
    url: () => '/',
    ready: (page) => expect(page.getByRole('heading', { level: 1 })).toBeVisible(),
  },
  {
    screen: 'chats',
    url: () => '/chats',
    ready: (page) =>
      expect(page.getByRole('link', { name: /Contrast club/ })).toContainText('Group hello from Grace'),
  },
  {
    screen: 'chat-room',
    url: (w) => `/chats/${w.chatId}`,
    ready: async (page) => {
      await send(page, 'And a reply from Ada');
      await expect(pictureInRoom(page)).toBeVisible();
    },
  },
  {
    screen: 'message-menu',
    url: (w) => `/chats/${w.chatId}`,
    ready: async (page) => {
      await send(page, 'Ada opens the menu of this one');
      await page.getByRole('button', { name: 'Message actions' }).last().click();
    },
  },
  {
    screen: 'chat-settings',
    url: (w) => `/chats/${w.chatId}/settings`,
    ready: heading('Chat Settings'),
  },
  {
    screen: 'group-room',
    url: (w) => `/groups/${w.groupId}`,
    ready: (page) =>
      expect(
        page.getByRole('region', { name: 'Messages' }).getByText('Group hello from Grace'),
      ).toBeVisible(),
  },
  {
    // A thread opened under Grace's message, with a reply of Ada's: beside the room at 1280 px, over it at 390.
    screen: 'thread',
    url: (w) => `/groups/${w.groupId}`,
    ready: async (page) => {
      const row = page
        .getByRole('region', { name: 'Messages' })
        .locator('[data-message-id]')
        .filter({ hasText: 'Group hello from Grace' });
      await row.hover();
      await openMessageMenu(row);
      await page.getByRole('menuitem', { name: 'Reply in thread' }).click();
      const pane = page.getByRole('complementary', { name: 'Thread' });
      await pane.getByRole('textbox', { name: 'Message' }).fill('A thread reply from Ada');
      await pane.getByRole('textbox', { name: 'Message' }).press('Enter');
      await expect(
        pane.getByTestId('message-body').filter({ hasText: 'A thread reply from Ada' }),
      ).toBeVisible();
      await expect(pane.getByRole('button', { name: 'Following' })).toBeVisible();
    },
  },
  {
    screen: 'threads',
    url: () => '/threads',
    ready: (page) => expect(page.getByTestId('followed-thread')).toContainText('A thread reply from Ada'),
  },
  {
    screen: 'group-settings',
    url: (w) => `/groups/${w.groupId}/settings`,
    ready: heading('Manage Chat Room'),
  },
  {
    screen: 'profile',
    url: () => '/profile',
    ready: heading('My Profile'),
  },
  {
    screen: 'profile-edit',
    url: () => '/profile/edit',
    ready: heading('Edit your Profile'),
  },
  {
    screen: 'public-profile',
    url: (w) => `/user/${w.grace.account.username}`,
    ready: (page, w) => expect(page.getByRole('heading', { name: fullName(w.grace) })).toBeVisible(),
  },
  {
    screen: 'settings',
    url: () => '/settings',
    ready: heading('Account Settings'),
  },
  {
    screen: 'not-found',
    url: () => '/no-such-page',
    ready: heading('Page not found'),
  },
  {
    screen: 'new-group',
    url: () => '/chats',
    ready: async (page) => {
      await page.getByRole('button', { name: 'New Group' }).click();
      await expect(page.getByRole('dialog', { name: 'New Group' })).toBeVisible();
    },
  },
  {
    screen: 'search',
    url: () => '/chats',
    ready: async (page) => {
      await expect(page.getByRole('link', { name: /Contrast club/ })).toBeVisible();
      await page.keyboard.press('ControlOrMeta+k');
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.type('Grace');
      await expect(page.getByRole('option').first()).toBeVisible();
    },
  },
];

/** A screen of a visitor who is signed out: the landing page and the account screens. */
const signedOutScreens: Array<{ screen: string; ready: (page: Page) => Promise<void> }> = [
  { screen: 'coming-soon', ready: opened('/coming-soon', (page) => page.getByRole('contentinfo')) },
  { screen: 'login', ready: opened('/login', (page) => page.getByRole('tab', { name: 'Login' })) },
  { screen: 'register', ready: opened('/register', signUpTab) },
  {
    screen: 'register-errors',
    ready: async (page) => {
      await opened('/register', signUpTab)(page);
      await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    },
  },
  { screen: 'reset-password', ready: opened('/reset-password', (page) => page.getByLabel('Email')) },
  // The verify screen, reached as a new person does: by signing up.
  { screen: 'verify-email', ready: (page) => signUpOnScreen(page, newAccount('vera')) },
];

for (const width of [1280, 390]) {
  test.describe(`every screen is axe-clean (serious, critical) in the light and dark themes at ${width} px`, () => {
    // A big page scanned twice on a busy machine takes a while.
    test.describe.configure({ timeout: 180_000 });
    const viewport = { width, height: width > 1000 ? 800 : 844 };

    test.describe('signed in', () => {
      // One world for the width, its screens taken in order in one worker.
      test.describe.configure({ mode: 'default' });
      let request: APIRequestContext;
      let world: World;
      test.beforeAll(async ({ browser, playwright }, info) => {
        test.setTimeout(180_000);
        request = await playwright.request.newContext({ baseURL: info.project.use.baseURL });
        world = await seed(browser, request, { viewport });
      });
      test.afterAll(async () => {
        await Promise.all([world?.ada.context.close(), world?.grace.context.close()]);
        await request?.dispose();
      });

      for (const { screen, url, ready } of signedInScreens) {
        test(screen, async () => {
          const page = await world.ada.context.newPage();
          try {
            await page.goto(url(world));
            await ready(page, world);
            await audit(page, screen, width);
          } finally {
            await page.close();
          }
        });
      }
    });

    for (const { screen, ready } of signedOutScreens) {
      test(`${screen}, signed out`, async ({ browser }) => {
        const visitor = await browser.newContext({ viewport });
        try {
          const page = await visitor.newPage();
          await ready(page);
          await audit(page, screen, width);
        } finally {
          await visitor.close();
        }
      });
    }
  });
}
