import { pngOf } from '@parley/fixtures';
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { fullName, groupChat, type Person, peoplePerTest } from './support/people';

// Group management: the admin renames the group, changes its picture, adds and removes members while the others
// have the room open and follow live; a member leaves; the admin deletes the group.

const person = peoplePerTest();

const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text).first();
const roomTitle = (page: Page, name: string) => page.getByRole('heading', { level: 1, name });
const connected = (page: Page) => expect(page.locator('[data-status="connected"]')).toBeVisible();

async function addMember(admin: Page, who: Person) {
  await admin.getByLabel('Add members').fill(who.account.username);
  const results = admin.getByRole('list', { name: 'Search results' });
  await results.getByRole('button', { name: /^Add / }).click();
  await expect(toast(admin, /was added to the group$/)).toBeVisible();
  await expect(admin.getByTestId('member-list')).toContainText(`@${who.account.username}`);
}

/** Ada, Grace and Alan, and a name for their group. */
async function crewOfThree(browser: Browser, request: APIRequestContext) {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  return { ada, grace, alan, crew: `Crew ${Date.now().toString(36)}` };
}

test('an admin makes a group, adds members and renames it with a picture while the members follow live', async ({
  browser,
  request,
}) => {
  const { ada, grace, alan, crew } = await crewOfThree(browser, request);

  // Ada creates the group and opens its settings: the admin's view.
  await ada.page.goto('/chats');
  await ada.page.getByRole('button', { name: 'New Group' }).click();
  const dialog = ada.page.getByRole('dialog', { name: 'New Group' });
  await dialog.getByLabel('Group name').fill(crew);
  await dialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(ada.page).toHaveURL(/\/groups\/[^/]+$/);
  const groupId = decodeURIComponent(new URL(ada.page.url()).pathname.split('/')[2]!);
  await ada.page.getByRole('link', { name: 'Group Settings' }).click();
  await expect(ada.page).toHaveURL(`/groups/${groupId}/settings`);
  await expect(ada.page.getByRole('heading', { name: 'Manage Chat Room' })).toBeVisible();
  await expect(ada.page.getByText('Recommended: Square image, max 2MB')).toBeVisible();
  await expect(ada.page.getByRole('textbox', { name: 'Group name' })).toHaveValue(crew);

  // Grace watches her chat list: the group appears there as soon as Ada adds her.
  await grace.page.goto('/chats');
  await expect(grace.page.getByText('No chats yet')).toBeVisible();
  await addMember(ada.page, grace);
  const graceRow = grace.page.getByRole('link', { name: new RegExp(crew) });
  await expect(graceRow).toBeVisible();
  await graceRow.click();
  await expect(grace.page).toHaveURL(`/groups/${groupId}`);
  await expect(roomTitle(grace.page, crew)).toBeVisible();

  await addMember(ada.page, alan);
  await alan.page.goto(`/groups/${groupId}`);
  await expect(roomTitle(alan.page, crew)).toBeVisible();
  await expect(messages(grace.page).getByText(new RegExp(`added ${fullName(alan)}$`))).toBeVisible();
  await expect(ada.page.getByTestId('member-count')).toHaveText('3 members');

  // A blank name is refused on the screen; then Ada renames the group and gives it a picture.
  const nameField = ada.page.getByRole('textbox', { name: 'Group name' });
  await nameField.fill('  ');
  await ada.page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(ada.page.getByText('Group name is required.')).toBeVisible();
  await expect(nameField).toBeFocused();
  await nameField.fill('Renamed crew');
  await ada.page.getByLabel('Description').fill('Weekend plans and photos');
  await ada.page
    .getByLabel('Group avatar', { exact: true })
    .setInputFiles({ name: 'crew.png', mimeType: 'image/png', buffer: pngOf(96, 96, [220, 60, 90]) });
  await expect(ada.page.getByRole('img', { name: 'Preview of the chosen group avatar' })).toBeVisible();
  await ada.page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toast(ada.page, 'Group updated successfully')).toBeVisible();
  await expect(ada.page.getByRole('img', { name: 'Current group avatar' })).toHaveAttribute('src', /.+/);

  // Both members see the new name, the picture and the system line at once, without reloading.
  for (const member of [grace, alan]) {
    await expect(roomTitle(member.page, 'Renamed crew')).toBeVisible();
    await expect(member.page.locator('header img').first()).toHaveAttribute('src', /.+/);
    await expect(messages(member.page).getByText(/renamed the group to Renamed crew$/)).toBeVisible();
  }
});

test('an admin removes a member, whose open room loses the chat; a member leaves; the admin deletes it', async ({
  browser,
  request,
}) => {
  const { ada, grace, alan, crew } = await crewOfThree(browser, request);
  const groupId = await groupChat(request, ada, crew, [grace, alan]);
  for (const member of [grace, alan]) {
    await member.page.goto(`/groups/${groupId}`);
    await expect(roomTitle(member.page, crew)).toBeVisible();
    await connected(member.page);
  }
  await ada.page.goto(`/groups/${groupId}/settings`);
  await expect(ada.page.getByTestId('member-count')).toHaveText('3 members');

  // Ada removes Alan: his open room loses the chat, and so does his list.
  const alanRow = ada.page
    .getByTestId('member-list')
    .getByRole('listitem')
    .filter({
      hasText: `@${alan.account.username}`,
    });
  await alanRow.getByRole('button', { name: /^Remove / }).click();
  await expect(toast(ada.page, /was removed from the group$/)).toBeVisible();
  await expect(ada.page.getByTestId('member-count')).toHaveText('2 members');
  await expect(alan.page.getByRole('alert').filter({ hasText: 'Chat room not found' })).toBeVisible();
  await expect(messages(grace.page).getByText(new RegExp(`removed ${fullName(alan)}$`))).toBeVisible();
  await alan.page.getByRole('link', { name: 'Back to chats' }).click();
  await expect(alan.page.getByText('No chats yet')).toBeVisible();
  await alan.page.goto(`/groups/${groupId}/settings`);
  await expect(alan.page.getByRole('heading', { name: 'Chat not found' })).toBeVisible();

  // Grace sees the member view and leaves after confirming.
  await grace.page.getByRole('link', { name: 'Group Settings' }).click();
  await expect(grace.page.getByRole('heading', { name: 'Group Chat Settings' })).toBeVisible();
  await expect(grace.page.getByRole('heading', { name: 'Manage Chat Room' })).toHaveCount(0);
  await expect(grace.page.getByTestId('group-name')).toHaveText(crew);
  await expect(grace.page.getByText('Group admin:')).toBeVisible();
  await expect(grace.page.getByTestId('group-admin')).toHaveText(fullName(ada));
  await grace.page.getByRole('button', { name: 'Leave Group' }).click();
  const leave = grace.page.getByRole('dialog', { name: 'Leave Group?' });
  await expect(leave).toContainText("You'll need to be invited back to rejoin.");
  await leave.getByRole('button', { name: 'Cancel' }).click();
  await expect(leave).toBeHidden();
  await grace.page.getByRole('button', { name: 'Leave Group' }).click();
  await leave.getByRole('button', { name: 'Leave Group' }).click();
  await expect(grace.page).toHaveURL('/chats');
  await expect(toast(grace.page, 'You left the group')).toBeVisible();
  await expect(grace.page.getByText('No chats yet')).toBeVisible();

  // Ada's room shows who left; then she deletes the group.
  await ada.page.goto(`/groups/${groupId}`);
  await expect(messages(ada.page).getByText(new RegExp(`${fullName(grace)} left$`))).toBeVisible();
  await ada.page.getByRole('link', { name: 'Group Settings' }).click();
  await expect(ada.page.getByTestId('member-count')).toHaveText('1 member');
  await ada.page.getByRole('button', { name: 'Delete Chatroom' }).click();
  const del = ada.page.getByRole('dialog', { name: 'Delete Chatroom?' });
  await del.getByRole('button', { name: 'Delete Chatroom' }).click();
  await expect(ada.page).toHaveURL('/chats');
  await expect(toast(ada.page, 'Chatroom deleted')).toBeVisible();
  await expect(ada.page.getByText('No chats yet')).toBeVisible();
});

test('a non-admin is refused by the server and a private chat has its own settings', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');

  // Private chat settings: the other person's card, a link to the profile, and clearing for oneself.
  await ada.page.goto(`/user/${grace.account.username}`);
  await ada.page.getByRole('button', { name: 'Message' }).click();
  await expect(ada.page).toHaveURL(/\/chats\/[^/]+$/);
  const chatId = decodeURIComponent(new URL(ada.page.url()).pathname.split('/')[2]!);
  await ada.page.getByPlaceholder('Type your message...').fill('Something to clear');
  await ada.page.getByRole('button', { name: 'Send message' }).click();
  await expect(messages(ada.page).getByText('Something to clear')).toBeVisible();

  await ada.page.getByRole('link', { name: 'Chat Settings' }).click();
  await expect(ada.page).toHaveURL(`/chats/${chatId}/settings`);
  await expect(ada.page.getByRole('heading', { name: fullName(grace) })).toBeVisible();
  await expect(ada.page.getByText(`@${grace.account.username}`)).toBeVisible();
  await expect(ada.page.getByRole('link', { name: 'View profile' })).toHaveAttribute(
    'href',
    `/user/${grace.account.username}`,
  );
  await ada.page.getByRole('button', { name: 'Clear conversation' }).click();
  await ada.page
    .getByRole('dialog', { name: 'Clear conversation?' })
    .getByRole('button', { name: 'Clear conversation' })
    .click();
  await expect(toast(ada.page, 'Conversation cleared')).toBeVisible();
  await expect(ada.page).toHaveURL(`/chats/${chatId}`);
  await expect(ada.page.getByText('No messages yet. Say hello!')).toBeVisible();
  // Only for Ada: Grace still has the message.
  await grace.page.goto(`/chats/${chatId}`);
  await expect(messages(grace.page).getByText('Something to clear')).toBeVisible();

  // A group id under /chats/…/settings goes to the group's settings; a member's PATCH is a 403.
  const groupId = await groupChat(request, ada, 'Members only', [grace]);
  await grace.page.goto(`/chats/${groupId}/settings`);
  await expect(grace.page).toHaveURL(`/groups/${groupId}/settings`);
  await expect(grace.page.getByRole('heading', { name: 'Group Chat Settings' })).toBeVisible();
  const refused = await request.patch(`/api/chats/${groupId}/`, {
    multipart: { group_name: 'Taken over' },
    headers: { Authorization: `Bearer ${grace.token}` },
  });
  expect(refused.status()).toBe(403);
});
