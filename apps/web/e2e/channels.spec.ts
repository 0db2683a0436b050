import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './support/axe';
import { fullName, type Person, peoplePerTest } from './support/people';
import { openMessageMenu } from './support/room';

// Channels: public groups found in 'Browse channels', previewed from outside (history, live messages, a
// 'Join channel' bar for a composer), joined; and New Group making a public announcement channel, where a member
// reads and reacts but cannot post.

const person = peoplePerTest();
const SHOTS = process.env.PARLEY_E2E_SHOTS ?? path.join(import.meta.dirname, '..', 'test-results', 'screens');

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const joinBar = (page: Page) => page.getByRole('region', { name: 'Join channel' });
/** A page's first load on a busy machine (the app's code, the room, its socket) may take a while. */
const FIRST_LOAD = { timeout: 90_000 };
const connected = (page: Page) => expect(page.locator('[data-status="connected"]')).toBeVisible(FIRST_LOAD);
const channelList = (page: Page) => page.getByRole('region', { name: 'Channels' });
/** A word no other test's channel has, for the directory's search. */
const uniqueWord = (stem: string) =>
  `${stem}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(messages(page).getByText(text)).toBeVisible();
}

/** A public group made through the API by `owner`, which `members` join. */
async function channel(
  request: APIRequestContext,
  owner: Person,
  fields: { group_name: string; description: string; posting?: 'everyone' | 'admins' },
  members: Person[] = [],
): Promise<string> {
  const created = await request.post('/api/chats/group/new/', {
    headers: { Authorization: `Bearer ${owner.token}` },
    data: { visibility: 'public', ...fields },
  });
  expect(created.ok(), await created.text()).toBe(true);
  const chatId = (await created.json()).chat_id as string;
  for (const member of members) {
    const joined = await request.post(`/api/chats/${chatId}/join/`, {
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(joined.ok(), await joined.text()).toBe(true);
  }
  return chatId;
}

/** Opens 'Browse channels' from the chat list and searches for `q`. */
async function browseFor(page: Page, q: string) {
  await page.goto('/chats');
  await page.getByRole('link', { name: 'Browse channels' }).click(FIRST_LOAD);
  await expect(page).toHaveURL('/channels');
  await expect(page.getByRole('heading', { name: 'Browse channels' })).toBeVisible(FIRST_LOAD);
  await page.getByRole('searchbox', { name: 'Search channels' }).fill(q);
}

test('a third person finds a channel by its description, previews it live, joins it, and the members see it', async ({
  browser,
  request,
}) => {
  // Three people, each in a browser of their own, and the rooms they open: three times the usual ceiling.
  test.slow();
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  const word = uniqueWord('ridgeway');
  const name = `Hill walkers ${word.slice(-6)}`;
  const chatId = await channel(
    request,
    ada,
    { group_name: name, description: `Maps and weekend plans for ${word} walkers` },
    [grace],
  );

  // Ada and Grace are in the room; Ada says something before Alan comes.
  for (const member of [ada, grace]) {
    await member.page.goto(`/groups/${chatId}`);
    await expect(composer(member.page)).toBeVisible(FIRST_LOAD);
    await connected(member.page);
  }
  await send(ada.page, 'Welcome, walkers');

  // Alan searches the directory by a word of the description: the channel, its members, a Join button.
  const sent: string[] = [];
  alan.page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
  await browseFor(alan.page, word.slice(0, -2));
  const row = channelList(alan.page).getByRole('listitem').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await expect(channelList(alan.page).getByRole('listitem')).toHaveCount(1);
  await expect(row.getByTestId('channel-members')).toHaveText('2 members');
  await expect(row).toContainText(`Maps and weekend plans for ${word} walkers`);
  await expect(row.getByRole('button', { name: `Join ${name}` })).toBeVisible();

  // Choosing it previews it: the history, the Join bar instead of the composer, and new messages live.
  await row.getByRole('link', { name }).click();
  await expect(alan.page).toHaveURL(`/groups/${chatId}`);
  await expect(messages(alan.page).getByText('Welcome, walkers')).toBeVisible();
  await expect(joinBar(alan.page)).toBeVisible();
  await expect(composer(alan.page)).toHaveCount(0);
  await connected(alan.page);
  await send(ada.page, 'Anyone for Saturday?');
  await expect(messages(alan.page).getByText('Anyone for Saturday?')).toBeVisible();
  // A watcher reports no reads: nothing but the socket's own pings went out.
  expect(sent.filter((f) => f.includes('read_messages') || f.includes('messages_delivered'))).toEqual([]);

  // Alan joins: the bar becomes the composer (with the focus), the chat joins his list, the members see it.
  await joinBar(alan.page).getByRole('button', { name: 'Join channel' }).click();
  await expect(composer(alan.page)).toBeFocused();
  await expect(joinBar(alan.page)).toHaveCount(0);
  await expect(
    alan.page.getByRole('complementary', { name: 'Chat list' }).getByRole('link', { name: new RegExp(name) }),
  ).toBeVisible();
  for (const member of [ada, grace]) {
    await expect(messages(member.page).getByText(`${fullName(alan)} joined`)).toBeVisible();
  }
  await connected(alan.page);
  await send(alan.page, 'Count me in');
  await expect(messages(ada.page).getByText('Count me in')).toBeVisible();

  // Back in the directory the channel shows as joined, with one more member.
  await browseFor(alan.page, word);
  const joined = channelList(alan.page).getByRole('listitem').filter({ hasText: name });
  await expect(joined).toContainText('Joined');
  await expect(joined.getByTestId('channel-members')).toHaveText('3 members');
});

test('New Group makes a public announcement channel where a member reads and reacts but cannot post', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const name = `News ${uniqueWord('desk')}`;

  // Ada makes the channel: public, described, only admins post. The dialog starts private, everyone posting.
  await ada.page.goto('/chats');
  await ada.page.getByRole('button', { name: 'New Group' }).click(FIRST_LOAD);
  const dialog = ada.page.getByRole('dialog', { name: 'New Group' });
  await dialog.getByLabel('Group name').fill(name);
  await expect(dialog.getByRole('radio', { name: /^Private/ })).toBeChecked();
  await expect(dialog.getByRole('radio', { name: /^Everyone/ })).toBeChecked();
  await dialog.getByRole('radio', { name: /^Public channel/ }).check();
  await dialog.getByLabel('Description (optional)').fill('Release notes and outages');
  await expect(dialog.getByText('25/500')).toBeVisible();
  await dialog.getByRole('radio', { name: /^Only admins/ }).check();
  await dialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(ada.page).toHaveURL(/\/groups\/[^/]+$/);
  const chatId = decodeURIComponent(new URL(ada.page.url()).pathname.split('/')[2] as string);
  await expect(composer(ada.page)).toBeVisible();
  await connected(ada.page);

  // Grace finds it by its name and joins from the directory: the room opens with no composer.
  await browseFor(grace.page, name);
  const row = channelList(grace.page).getByRole('listitem').filter({ hasText: name });
  await expect(row).toContainText('Release notes and outages');
  await row.getByRole('button', { name: `Join ${name}` }).click();
  await expect(grace.page).toHaveURL(`/groups/${chatId}`);
  const note = grace.page.getByTestId('admins-only');
  await expect(note).toHaveText('Only admins can post in this group.');
  await expect(composer(grace.page)).toHaveCount(0);
  await expect(joinBar(grace.page)).toHaveCount(0);
  await connected(grace.page);
  mkdirSync(SHOTS, { recursive: true });
  await grace.page.screenshot({ path: path.join(SHOTS, 'admins-only.png') });
  expect(await seriousFindings(grace.page), 'admins-only line').toEqual([]);

  // Ada posts; Grace reads it live and reacts, which Ada sees.
  await send(ada.page, 'Version 2 is out');
  const post = (page: Page) =>
    messages(page)
      .locator('[data-message-id]')
      .filter({ has: page.locator('p', { hasText: 'Version 2 is out' }) });
  await expect(post(grace.page)).toBeVisible();
  await post(grace.page).hover();
  await openMessageMenu(post(grace.page));
  await grace.page.getByRole('menu').getByRole('menuitem', { name: 'React' }).click();
  await grace.page.getByRole('menuitem', { name: 'React with 👍' }).click();
  await expect(post(ada.page).getByTestId('reaction')).toHaveText('👍1');
});

test('the directory, the join bar and New Group pass axe in light and dark, at 1280 and 390 px', async ({
  browser,
  request,
}) => {
  // Three screens scanned at two widths in two themes: twelve scans, three times the usual ceiling.
  test.slow();
  const ada = await person(browser, request, 'ada');
  const alan = await person(browser, request, 'alan');
  const word = uniqueWord('contrast');
  const name = `Contrast ${word.slice(-6)}`;
  const chatId = await channel(request, ada, {
    group_name: name,
    description: `A channel for ${word} checks, long enough to wrap onto a second line on a phone screen`,
  });
  await ada.page.goto(`/groups/${chatId}`);
  await connected(ada.page);
  await send(ada.page, 'Something to read before joining');
  mkdirSync(SHOTS, { recursive: true });

  const page = alan.page;
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      const tag = `${width}-${colorScheme}`;

      await page.goto('/channels');
      await page.getByRole('searchbox', { name: 'Search channels' }).fill(word);
      await expect(channelList(page).getByRole('listitem')).toHaveCount(1);
      await page.screenshot({ path: path.join(SHOTS, `${tag}-channels.png`) });
      expect(await seriousFindings(page), `channels ${tag}`).toEqual([]);

      await page.goto(`/groups/${chatId}`);
      await expect(messages(page).getByText('Something to read before joining')).toBeVisible();
      await expect(joinBar(page)).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, `${tag}-join-bar.png`) });
      expect(await seriousFindings(page), `join bar ${tag}`).toEqual([]);

      await page.goto('/chats');
      await page.getByRole('button', { name: 'New Group' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Group' });
      await dialog.getByRole('radio', { name: /^Public channel/ }).check();
      await dialog.getByLabel('Description (optional)').fill('What this channel is for');
      await page.screenshot({ path: path.join(SHOTS, `${tag}-new-group.png`) });
      expect(await seriousFindings(page), `new group ${tag}`).toEqual([]);
    }
  }

  // An empty search says so.
  await page.goto('/channels');
  await page.getByRole('searchbox', { name: 'Search channels' }).fill(`${word}nothing`);
  await expect(page.getByText(`No channels match "${word}nothing"`)).toBeVisible();
});
