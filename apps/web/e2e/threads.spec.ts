import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './support/axe';
import { groupChat, type PersonOptions, peoplePerTest } from './support/people';
import { loading, openMessageMenu, openRoom, send, timeline } from './support/room';

// Threads: two people talk in a thread opened with 'Reply in thread' while the third, looking at the room, sees
// only the reply count under the root change; a follower who is elsewhere finds the thread in Threads with its
// unread replies. On a phone the thread covers the room, and a reload keeps it open.

const person = peoplePerTest();

const pane = (page: Page) => page.getByRole('complementary', { name: 'Thread' });
const composerIn = (scope: ReturnType<typeof pane>) => scope.getByRole('textbox', { name: 'Message' });
const summary = (page: Page) => timeline(page).locator('[data-thread-root]');

async function reply(page: Page, text: string) {
  await composerIn(pane(page)).fill(text);
  await composerIn(pane(page)).press('Enter');
  await expect(pane(page).locator('[data-message-id]').filter({ hasText: text })).toBeVisible();
}

/** Ada, Grace and Alan in a group Ada made, and the group's id. */
async function crewOfThree(browser: Browser, request: APIRequestContext, options: PersonOptions = {}) {
  const ada = await person(browser, request, 'ada', options);
  const grace = await person(browser, request, 'grace', options);
  const alan = await person(browser, request, 'alan', options);
  const chatId = await groupChat(request, ada, `Trip ${Date.now().toString(36)}`, [grace, alan]);
  return { ada, grace, alan, chatId };
}

/** Opens the thread under the message saying `text` from its actions menu; the root's id. */
async function replyInThread(page: Page, text: string): Promise<number> {
  const row = timeline(page).locator('[data-message-id]').filter({ hasText: text }).last();
  await row.hover();
  await openMessageMenu(row);
  await page.getByRole('menu').getByRole('menuitem', { name: 'Reply in thread' }).click();
  await expect(pane(page)).toBeVisible();
  await expect(page).toHaveURL(/\/thread\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

const axeClean = async (page: Page) => expect(await seriousFindings(page)).toEqual([]);

test('two talk in a thread while the third sees only the reply count; a follower finds it in Threads', async ({
  browser,
  request,
}) => {
  // Three browsers on a busy machine: the journey may take longer than one person's.
  test.slow();
  const { ada, grace, alan, chatId } = await crewOfThree(browser, request);
  await Promise.all([ada, grace, alan].map((p) => openRoom(p.page, `/groups/${chatId}`)));
  await send(ada.page, 'Who brings the maps?');
  await expect(timeline(alan.page).getByText('Who brings the maps?')).toBeVisible();

  // Ada opens a thread under her message: the pane beside the room, its composer focused.
  const rootId = await replyInThread(ada.page, 'Who brings the maps?');
  await expect(pane(ada.page).getByRole('heading', { name: 'Thread' })).toBeVisible();
  await expect(composerIn(pane(ada.page))).toBeFocused();
  await expect(pane(ada.page).getByRole('button', { name: 'Follow' })).toBeVisible();
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('No replies yet');
  await reply(ada.page, 'I can bring the paper ones');
  await expect(pane(ada.page).getByRole('button', { name: 'Following' })).toBeVisible();

  // Grace sees '1 reply' under the root, opens the thread from it and answers; Ada's pane shows it live.
  await expect(summary(grace.page)).toContainText('1 reply');
  await summary(grace.page).click();
  await expect(grace.page).toHaveURL(`/groups/${chatId}/thread/${rootId}`);
  await expect(pane(grace.page).getByText('I can bring the paper ones', { exact: true })).toBeVisible();
  await reply(grace.page, 'I will bring the compass');
  await expect(pane(ada.page).getByText('I will bring the compass', { exact: true })).toBeVisible();
  await expect(pane(ada.page).getByTestId('thread-reply-count')).toHaveText('2 replies');
  await reply(ada.page, 'Perfect, see you at nine');
  await expect(pane(grace.page).getByText('Perfect, see you at nine', { exact: true })).toBeVisible();

  // Alan, looking at the room, sees the count under the root change and never a reply in the timeline.
  await expect(summary(alan.page)).toContainText('3 replies');
  for (const text of ['I can bring the paper ones', 'I will bring the compass', 'Perfect, see you at nine'])
    await expect(timeline(alan.page).getByText(text)).toHaveCount(0);
  await expect(pane(alan.page)).toHaveCount(0);
  // Nor do the two in it: their rooms keep the replies in the thread.
  await expect(timeline(ada.page).getByText('I will bring the compass')).toHaveCount(0);

  // The pane is clean for axe in light and in dark.
  await axeClean(ada.page);
  await ada.page.emulateMedia({ colorScheme: 'dark' });
  await axeClean(ada.page);
  await ada.page.emulateMedia({ colorScheme: 'light' });

  // Escape closes Ada's pane and gives the focus back to the summary under the root.
  await composerIn(pane(ada.page)).press('Escape');
  await expect(pane(ada.page)).toHaveCount(0);
  await expect(ada.page).toHaveURL(`/groups/${chatId}`);
  await expect(summary(ada.page)).toBeFocused();

  // Ada goes elsewhere; Grace replies again. Ada follows the thread (she started it): Threads shows it with one
  // unread reply, and choosing it opens the thread.
  await ada.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  await expect(ada.page).toHaveURL('/threads');
  const row = ada.page.getByTestId('followed-thread');
  await expect(row).toContainText('Who brings the maps?');
  await expect(row.getByTestId('thread-unread')).toHaveCount(0);
  await reply(grace.page, 'Bring a torch too');
  await expect(row.getByTestId('thread-unread')).toHaveText(/^1\b/);
  await expect(row).toContainText('Bring a torch too');
  await axeClean(ada.page);
  await row.click();
  await expect(ada.page).toHaveURL(`/groups/${chatId}/thread/${rootId}`);
  await expect(pane(ada.page).getByText('Bring a torch too', { exact: true })).toBeVisible();

  // Read in the pane, the reply is no longer unread.
  await ada.page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Threads' }).click();
  await expect(ada.page.getByTestId('followed-thread')).toBeVisible();
  await expect(ada.page.getByTestId('thread-unread')).toHaveCount(0);
  // Alan never replied nor followed: his Threads view is empty.
  await alan.page.goto('/threads');
  await expect(alan.page.getByText('No threads yet')).toBeVisible();
});

test('on a phone the thread covers the room, a reload keeps it open, and it closes back to the room', async ({
  browser,
  request,
}) => {
  const phone: PersonOptions = { viewport: { width: 390, height: 844 } };
  const { ada, grace, chatId } = await crewOfThree(browser, request, phone);
  await openRoom(ada.page, `/groups/${chatId}`);
  await send(ada.page, 'Lunch at noon?');
  const rootId = await replyInThread(ada.page, 'Lunch at noon?');
  // The focus is in the pane (its composer: this phone has a mouse).
  await expect(composerIn(pane(ada.page))).toBeFocused();
  await reply(ada.page, 'Or at one');

  // Full screen under the header: the pane spans the phone's width and height, the room under it out of reach.
  const box = await pane(ada.page).boundingBox();
  const header = await ada.page.getByRole('banner').boundingBox();
  expect(box).toMatchObject({ x: 0, width: 390 });
  expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
  expect(Math.round(box?.y ?? 0)).toBe(Math.round((header?.y ?? 0) + (header?.height ?? 0)));
  await expect(ada.page.locator('[inert]')).toContainText('Lunch at noon?');

  // Grace, on her phone, opens the thread's link: it shows the root and the reply; a reload keeps it open.
  await grace.page.goto(`/groups/${chatId}/thread/${rootId}`);
  await expect(pane(grace.page).getByText('Or at one', { exact: true })).toBeVisible(loading);
  await grace.page.reload();
  await expect(pane(grace.page).getByText('Lunch at noon?', { exact: true })).toBeVisible(loading);
  await expect(pane(grace.page).getByText('Or at one', { exact: true })).toBeVisible();
  await reply(grace.page, 'One is better');
  await expect(pane(ada.page).getByText('One is better', { exact: true })).toBeVisible();
  await axeClean(grace.page);
  await grace.page.emulateMedia({ colorScheme: 'dark' });
  await axeClean(grace.page);

  // Closing goes back to the room, where the root shows its replies.
  await pane(grace.page).getByRole('button', { name: 'Close thread' }).click();
  await expect(grace.page).toHaveURL(`/groups/${chatId}`);
  await expect(summary(grace.page)).toContainText('2 replies');
  await expect(timeline(grace.page).getByText('One is better')).toHaveCount(0);
});
