import { SAFETY_TEXT } from '@parley/protocol';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './support/axe';
import { groupChat, type PersonOptions, peoplePerTest, privateChat } from './support/people';

// Live state people can trust, three people at once: presence follows a person signing in and out wherever
// they are shown; the chat being read never shows an unread badge while its messages arrive, and the list, the
// tab's title and 'Jump to latest' agree; a blocked person's text is nowhere on the blocker's screen.
//
// Presence's product target is "within 2 s". The checks below wait with the suite's ceilings instead (10 s for
// presence): a 2-core machine running the server, a build and several browsers is slower than a person's, and
// a broken presence never arrives at all, so the ceiling still tells the two apart.

const person = peoplePerTest();
const PRESENCE_CEILING_MS = 10_000;

const WIDE: PersonOptions = { viewport: { width: 1280, height: 720 } };
const PHONE: PersonOptions = { viewport: { width: 390, height: 844 } };
const dark = (o: PersonOptions): PersonOptions => ({ ...o, colorScheme: 'dark' });

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const bubble = (page: Page, text: string) =>
  messages(page)
    .locator('[data-message-id]')
    .filter({ has: page.locator('p', { hasText: text }) });
/** A chat's row in the chat list (its link, by the room's path). */
const row = (page: Page, path: string) =>
  page.getByRole('region', { name: 'Chats' }).locator(`a[href="${path}"]`);
const groupPath = (chatId: string) => `/groups/${encodeURIComponent(chatId)}`;
const privatePath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}`;
const shot = (page: Page, name: string) =>
  page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });

async function expectAxeClean(page: Page) {
  expect(await seriousFindings(page)).toEqual([]);
}

async function openRoom(page: Page, path: string) {
  await page.goto(path);
  await expect(composer(page)).toBeVisible();
  await expect(page.locator('[data-status]:not([data-status="connected"])')).toHaveCount(0);
}

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(bubble(page, text).last()).toHaveAttribute('data-message-id', /^[1-9]/);
}

/** Three people in a group of Ben's, each in a browser of their own (not opened yet: nobody is online). */
async function threeInAGroup(browser: Browser, request: APIRequestContext, options: PersonOptions[]) {
  const ann = await person(browser, request, 'ann', options[0]);
  const ben = await person(browser, request, 'ben', options[1]);
  const cal = await person(browser, request, 'cal', options[2]);
  const groupId = await groupChat(request, ben, 'Live state', [ann, cal]);
  return { ann, ben, cal, groupId };
}

test('a person signing in and out turns green and grey in the header and the list of whoever shows them', async ({
  browser,
  request,
}) => {
  const ann = await person(browser, request, 'ann', WIDE);
  const ben = await person(browser, request, 'ben', PHONE);
  const cal = await person(browser, request, 'cal', dark(PHONE));
  const chatId = await privateChat(request, ann, ben);
  const calsChatId = await privateChat(request, cal, ben);

  // Ann reads her chat with Ben (the two panes: the list beside the room); Cal has his chat list open on a phone.
  await openRoom(ann.page, privatePath(chatId));
  const annHeader = ann.page.getByTestId('partner-presence');
  await expect(annHeader).toHaveText('Offline');
  await expect(row(ann.page, privatePath(chatId)).getByTestId('online-dot')).toHaveCount(0);
  await cal.page.goto('/chats');
  const calsBen = row(cal.page, privatePath(calsChatId));
  await expect(calsBen).toBeVisible();
  await expect(calsBen.getByTestId('online-dot')).toHaveCount(0);

  // Ben signs in (his chat list): both see him online without a reload.
  await ben.page.goto('/chats');
  await expect(annHeader).toHaveText('Online', { timeout: PRESENCE_CEILING_MS });
  await expect(annHeader).toHaveAttribute('data-online', 'true');
  await expect(row(ann.page, privatePath(chatId)).getByTestId('online-dot')).toBeVisible({
    timeout: PRESENCE_CEILING_MS,
  });
  await expect(calsBen.getByTestId('online-dot')).toBeVisible({ timeout: PRESENCE_CEILING_MS });
  await shot(ann.page, 'presence-online-1280-light');
  await shot(cal.page, 'presence-online-390-dark');
  await expectAxeClean(ann.page);
  await expectAxeClean(cal.page);

  // He opens their chat: 'In this chat'; he leaves (his last page closes): offline, seen just now.
  await openRoom(ben.page, privatePath(chatId));
  await expect(annHeader).toHaveText('In this chat', { timeout: PRESENCE_CEILING_MS });
  await ben.page.close();
  await expect(annHeader).toHaveText('Last seen just now', { timeout: PRESENCE_CEILING_MS });
  await expect(annHeader).toHaveAttribute('data-online', 'false');
  await expect(row(ann.page, privatePath(chatId)).getByTestId('online-dot')).toHaveCount(0);
  await expect(calsBen.getByTestId('online-dot')).toHaveCount(0);
  await shot(ann.page, 'presence-offline-1280-light');
});

test('the chat being read shows no unread badge while messages arrive; list, title and Jump to latest agree', async ({
  browser,
  request,
}) => {
  const { ann, ben, cal, groupId } = await threeInAGroup(browser, request, [dark(WIDE), WIDE, PHONE]);
  const path = groupPath(groupId);
  await openRoom(ben.page, path);
  await openRoom(cal.page, path);
  // Enough history to scroll: sixteen messages, half from each.
  for (let i = 1; i <= 8; i++) {
    await send(ben.page, `Ben history ${i}`);
    await send(cal.page, `Cal history ${i}`);
  }

  // Ann reads the group, to its bottom, with the chat list beside it.
  await openRoom(ann.page, path);
  await messages(ann.page).evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(bubble(ann.page, 'Cal history 8')).toBeInViewport();
  const annRow = row(ann.page, path);
  await expect(annRow).toContainText('Cal history 8');
  await expect(annRow.getByTestId('unread-count')).toHaveCount(0, { timeout: 20_000 });
  await expect(ann.page).not.toHaveTitle(/^\(\d+\)/);

  // From here on, any unread badge drawn on the group's row is recorded, however briefly it shows.
  await ann.page.evaluate((href) => {
    const seen: string[] = [];
    Object.assign(window, { __badges: seen });
    const look = () => {
      const badge = document.querySelector(`a[href="${href}"] [data-testid="unread-count"]`);
      if (badge) seen.push(badge.textContent ?? '');
    };
    new MutationObserver(look).observe(document.body, {
      childList: true,
      subtree: true,
      characterData: true,
    });
  }, path);
  const badgesSeen = () => ann.page.evaluate(() => (window as unknown as { __badges: string[] }).__badges);

  // Three messages arrive while she reads: no badge on her open chat, nor a count in her title.
  await send(ben.page, 'New one');
  await send(cal.page, 'New two');
  await send(ben.page, 'New three');
  await expect(bubble(ann.page, 'New three')).toBeInViewport();
  await expect(annRow).toContainText('New three');
  // Cal (away from the room now) is the control: the same arrivals do count for someone not reading.
  await cal.page.goto('/chats');
  await send(ben.page, 'New four');
  await expect(row(cal.page, path).getByTestId('unread-count')).toHaveText(/^1\s/);
  await expect(cal.page).toHaveTitle(/^\(1\) /);
  await expect(annRow).toContainText('New four');
  expect(await badgesSeen()).toEqual([]);
  await expect(ann.page).not.toHaveTitle(/^\(\d+\)/);

  // Scrolled up into the history: the next arrivals are counted as new below, not the history under the view.
  await messages(ann.page).evaluate((el) => {
    el.scrollTop = 0;
  });
  const jump = ann.page.getByRole('button', { name: /^Jump to latest/ });
  await expect(jump).toHaveAccessibleName('Jump to latest');
  await send(ben.page, 'Below one');
  await expect(jump).toHaveAccessibleName('Jump to latest 1 newer message');
  await send(ben.page, 'Below two');
  await send(ben.page, 'Below three');
  await expect(jump).toHaveAccessibleName('Jump to latest 3 newer messages');
  await expect(jump).toContainText('3');
  await shot(ann.page, 'jump-to-latest-1280-dark');
  await expectAxeClean(ann.page);
  // Read while open and focused: still no badge and no title count.
  await expect(annRow).toContainText('Below three');
  expect(await badgesSeen()).toEqual([]);
  await expect(ann.page).not.toHaveTitle(/^\(\d+\)/);
  await jump.click();
  await expect(bubble(ann.page, 'Below three')).toBeInViewport();
  await expect(jump).toBeHidden();

  // Leaving the room leaves no stale badge behind in her list.
  await ann.page.getByRole('link', { name: 'Back to chats' }).click();
  await expect(ann.page).toHaveURL('/chats');
  await expect(row(ann.page, path)).toContainText('Below three');
  await expect(row(ann.page, path).getByTestId('unread-count')).toHaveCount(0);
  await expect(ann.page).not.toHaveTitle(/^\(\d+\)/);
  await shot(cal.page, 'badge-away-390-light');
});

test("a blocked person's text is nowhere on the blocker's screen: list, badge, title, notices, live region", async ({
  browser,
  request,
}) => {
  const { ann, ben, cal, groupId } = await threeInAGroup(browser, request, [PHONE, WIDE, dark(WIDE)]);
  const path = groupPath(groupId);
  const blocked = await request.post(`/api/users/${ben.account.username}/block/`, {
    headers: { Authorization: `Bearer ${ann.token}` },
  });
  expect(blocked.ok(), await blocked.text()).toBe(true);
  // Browser notifications are recorded instead of shown, with the permission granted.
  await ann.context.addInitScript(() => {
    const shown: string[] = [];
    Object.assign(window, { __notified: shown });
    class Recorded {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions = {}) {
        shown.push(`${title}: ${options.body ?? ''}`);
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: Recorded, configurable: true });
  });
  const notified = () => ann.page.evaluate(() => (window as unknown as { __notified: string[] }).__notified);

  // Ann has her chat list open on her phone while both write in the group.
  await ann.page.goto('/chats');
  await expect(row(ann.page, path)).toBeVisible();
  await openRoom(ben.page, path);
  await openRoom(cal.page, path);
  await send(cal.page, 'Cal says hello');
  await expect(row(ann.page, path)).toContainText('Cal says hello');
  await send(ben.page, 'Ben secret one');
  await send(cal.page, 'Cal again');
  await expect(row(ann.page, path)).toContainText('Cal again');
  await send(ben.page, 'Ben secret two');
  // Ben's message is the group's newest: Ann's list goes on showing Cal's, and counts Cal's two only.
  await send(cal.page, 'Cal barrier');
  await expect(row(ann.page, path)).toContainText('Cal barrier');
  await expect(row(ann.page, path).getByTestId('unread-count')).toHaveText(/^3\s/);
  await send(ben.page, 'Ben secret three');
  await expect(ann.page).toHaveTitle(/^\(3\) /);
  // A barrier after Ben's last: the list is fetched after it, and still shows Cal's.
  await send(cal.page, 'Cal last');
  await expect(row(ann.page, path)).toContainText('Cal last');
  await expect(row(ann.page, path).getByTestId('unread-count')).toHaveText(/^4\s/);
  await expect(ann.page).toHaveTitle(/^\(4\) /);
  await expect(ann.page.locator('body')).not.toContainText('Ben secret');
  expect((await notified()).join('\n')).not.toContain('Ben secret');
  expect((await notified()).join('\n')).toContain('Cal last');
  await shot(ann.page, 'blocked-list-390-light');
  await expectAxeClean(ann.page);

  // In the room his messages are folded; one arriving while she reads is not read out either.
  await openRoom(ann.page, path);
  await expect(ann.page.getByText(SAFETY_TEXT.blockedMessage).first()).toBeVisible();
  await send(ben.page, 'Ben live secret');
  await send(cal.page, 'Cal live');
  await expect(bubble(ann.page, 'Cal live')).toBeVisible();
  const liveRegions = ann.page.locator('[aria-live]');
  await expect(liveRegions.filter({ hasText: 'Cal live' })).toHaveCount(1);
  await send(ben.page, 'Ben newest secret');
  await expect(ann.page.locator('[data-blocked="true"]')).toHaveCount(5);
  for (const region of await liveRegions.all()) await expect(region).not.toContainText('Ben');
  expect(await ann.page.content()).not.toContain('secret');
  await expect(ann.page).not.toHaveTitle(/secret/);
  await expect(ann.page).not.toHaveTitle(/^\(\d+\)/);
  await shot(ann.page, 'blocked-room-390-light');
  await expectAxeClean(ann.page);

  // Cal, who blocked nobody, sees everything Ben wrote.
  await expect(bubble(cal.page, 'Ben newest secret')).toBeVisible();
  await shot(cal.page, 'blocked-control-1280-dark');
});
