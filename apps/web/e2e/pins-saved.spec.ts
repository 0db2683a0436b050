import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { seriousFindings } from './support/axe';
import { fullName, groupChat, type Person, type PersonOptions, peoplePerTest } from './support/people';
import { loading, openMessageMenu, openRoom, send, timeline } from './support/room';

// Pins and saved messages: the group's admin pins a message from its menu and the member sees the pinned bar and
// the system line live; clicking the bar jumps to the message. The member saves a message, finds it in Saved
// messages (from the header), opens it in its chat, and unsaves it. axe checks the room with its pinned bar and
// the Saved view in light and dark, at 1280 and at 390 px.

const person = peoplePerTest();

const pinnedBar = (page: Page) => page.getByRole('region', { name: 'Pinned messages' });
const rowOf = (page: Page, text: string) =>
  timeline(page).locator('[data-message-id]').filter({ hasText: text }).last();

/** Opens the actions menu of the message saying `text`; the menu. */
async function menuOf(page: Page, text: string) {
  const row = rowOf(page, text);
  await row.hover();
  await openMessageMenu(row);
  return page.getByRole('menu', { name: 'Message actions' });
}

/** An admin (the group's owner) and a member in a group the admin made, and its id. */
async function adminAndMember(browser: Browser, request: APIRequestContext, options: PersonOptions = {}) {
  const olga = await person(browser, request, 'olga', options);
  const mia = await person(browser, request, 'mia', options);
  const chatId = await groupChat(request, olga, `Crew ${Date.now().toString(36)}`, [mia]);
  return { olga, mia, chatId };
}

const axeClean = async (page: Page) => expect(await seriousFindings(page)).toEqual([]);

/** axe in light, then in dark (the page is left light). */
async function axeLightAndDark(page: Page) {
  await axeClean(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await axeClean(page);
  await page.emulateMedia({ colorScheme: 'light' });
}

const savedLink = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Saved' });

test('the admin pins a message live to the member, who jumps to it, saves one and unsaves it', async ({
  browser,
  request,
}) => {
  test.slow();
  const { olga, mia, chatId } = await adminAndMember(browser, request);
  await Promise.all([openRoom(olga.page, `/groups/${chatId}`), openRoom(mia.page, `/groups/${chatId}`)]);
  await send(mia.page, 'The plan: meet at nine by the pier');
  // Enough after it that the pinned message leaves the member's view (long lines: under the message rate limit).
  const filler = (i: number) =>
    `Filler line ${i}: the tide turns at noon, so the boats leave the pier early and come back late in the afternoon.`;
  for (let i = 1; i <= 12; i += 1) await send(mia.page, filler(i));
  await expect(timeline(olga.page).getByText(filler(12), { exact: true })).toBeVisible();

  // A member may not pin in a group: no 'Pin' in her menu.
  const miaMenu = await menuOf(mia.page, 'Filler line 12');
  await expect(miaMenu.getByRole('menuitem', { name: 'Save', exact: true })).toBeVisible();
  await expect(miaMenu.getByRole('menuitem', { name: 'Pin', exact: true })).toHaveCount(0);
  await mia.page.keyboard.press('Escape');

  // The admin pins the plan; the member sees the bar and the line at once.
  await timeline(olga.page).getByText('The plan: meet at nine by the pier').scrollIntoViewIfNeeded();
  await (await menuOf(olga.page, 'The plan: meet at nine by the pier'))
    .getByRole('menuitem', { name: 'Pin', exact: true })
    .click();
  await expect(pinnedBar(mia.page)).toContainText('The plan: meet at nine by the pier');
  await expect(pinnedBar(mia.page)).toContainText('Pinned message');
  await expect(timeline(mia.page).getByText(`${fullName(olga)} pinned a message`)).toBeVisible();
  await expect(pinnedBar(olga.page)).toContainText('The plan: meet at nine by the pier');
  const plan = rowOf(mia.page, 'The plan: meet at nine by the pier');
  await expect(plan).not.toBeInViewport();

  // Clicking the bar jumps to the pinned message: in view, with the focus on it.
  await pinnedBar(mia.page).getByRole('button').click();
  await expect(plan).toBeInViewport();
  await expect(plan).toBeFocused();
  await axeLightAndDark(mia.page);

  // The admin's menu now offers 'Unpin' on it.
  const olgaMenu = await menuOf(olga.page, 'The plan: meet at nine by the pier');
  await expect(olgaMenu.getByRole('menuitem', { name: 'Unpin', exact: true })).toBeVisible();
  await olga.page.keyboard.press('Escape');

  // The member saves a message; her menu then offers 'Unsave'.
  await (await menuOf(mia.page, 'The plan: meet at nine by the pier'))
    .getByRole('menuitem', { name: 'Save', exact: true })
    .click();
  await expect(mia.page.getByText('Saved to Saved messages')).toBeVisible();
  await expect(
    (await menuOf(mia.page, 'The plan: meet at nine by the pier')).getByRole('menuitem', {
      name: 'Unsave',
      exact: true,
    }),
  ).toBeVisible();
  await mia.page.keyboard.press('Escape');

  // Saved messages, from the header, lists it with its chat; it links to the message in its chat.
  await savedLink(mia.page).click();
  await expect(mia.page).toHaveURL('/saved');
  await expect(mia.page.getByRole('heading', { name: 'Saved messages' })).toBeVisible();
  const entry = mia.page.getByTestId('saved-message');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('The plan: meet at nine by the pier');
  await expect(entry).toContainText('Crew');
  await axeLightAndDark(mia.page);
  await entry.click();
  await expect(mia.page).toHaveURL(`/groups/${chatId}`);
  await expect(rowOf(mia.page, 'The plan: meet at nine by the pier')).toBeFocused(loading);

  // Back in Saved messages, she unsaves it: the list is empty.
  await savedLink(mia.page).click();
  await mia.page.getByRole('button', { name: /^Unsave the message/ }).click();
  await expect(mia.page.getByText('No saved messages')).toBeVisible();
  await mia.page.reload();
  await expect(mia.page.getByText('No saved messages')).toBeVisible(loading);
});

/** PUT through the API, as the person: a pin or a save. */
async function putAs(request: APIRequestContext, who: Person, path: string) {
  const res = await request.put(`/api${path}`, { headers: { Authorization: `Bearer ${who.token}` } });
  expect(res.ok(), await res.text()).toBe(true);
}

test('on a phone the pinned bar and Saved messages are clean for axe, light and dark', async ({
  browser,
  request,
}) => {
  const phone: PersonOptions = { viewport: { width: 390, height: 844 } };
  const { olga, mia, chatId } = await adminAndMember(browser, request, phone);
  await openRoom(mia.page, `/groups/${chatId}`);
  await send(mia.page, 'Bring the tide tables, please');
  const id = Number(await rowOf(mia.page, 'Bring the tide tables, please').getAttribute('data-message-id'));

  await putAs(request, olga, `/chats/${chatId}/pins/${id}/`);
  await expect(pinnedBar(mia.page)).toContainText('Bring the tide tables, please');
  await expect(timeline(mia.page).getByText(`${fullName(olga)} pinned a message`)).toBeVisible();
  const bar = await pinnedBar(mia.page).boundingBox();
  expect(bar?.width).toBeLessThanOrEqual(390);
  await axeLightAndDark(mia.page);

  await putAs(request, mia, `/saved/${id}/`);
  await savedLink(mia.page).click();
  await expect(mia.page).toHaveURL('/saved');
  await expect(mia.page.getByTestId('saved-message')).toContainText('Bring the tide tables, please');
  await axeLightAndDark(mia.page);
});
