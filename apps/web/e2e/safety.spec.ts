import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { fullName, type Person, peoplePerTest, privateChat } from './support/people';
import { openMessageMenu } from './support/room';

// Safety for people: blocking from a profile and the refusal the other side sees; muting a chat, after
// which its messages raise no browser notification while a mention still does; reporting a message and a person.

const person = peoplePerTest();

const auth = (p: Person) => ({ Authorization: `Bearer ${p.token}` });
const composer = (page: Page) => page.getByPlaceholder('Type your message...');

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(composer(page)).toHaveValue('');
}

/** Browser notifications are recorded instead of shown, with the permission granted. */
async function recordNotifications(p: Person) {
  await p.context.addInitScript(() => {
    const shown: Array<{ title: string; tag?: string; body?: string }> = [];
    Object.assign(window, { __notifications: shown });
    class RecordedNotification {
      static permission = 'granted';
      static requestPermission = async () => 'granted';
      onclick: (() => void) | null = null;
      constructor(title: string, options: NotificationOptions = {}) {
        shown.push({ title, tag: options.tag, body: options.body });
      }
      close() {}
    }
    Object.defineProperty(window, 'Notification', { value: RecordedNotification, configurable: true });
  });
}
const notifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { __notifications: Array<{ body?: string }> }).__notifications);

async function groupWith(request: APIRequestContext, owner: Person, name: string, members: Person[]) {
  const res = await request.post('/api/chats/group/new/', {
    data: { group_name: name },
    headers: auth(owner),
  });
  expect(res.ok(), await res.text()).toBe(true);
  const chatId = (await res.json()).chat_id as string;
  for (const m of members) {
    const added = await request.post(`/api/chats/${chatId}/members/`, {
      data: { username: m.account.username },
      headers: auth(owner),
    });
    expect(added.ok(), await added.text()).toBe(true);
  }
  return chatId;
}

test('blocking from a profile: the blocked person is refused, and the blocker can unblock in Settings', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);

  // Grace blocks Ada from Ada's public profile.
  await grace.page.goto(`/user/${ada.account.username}`);
  await grace.page.getByRole('button', { name: `Block ${fullName(ada)}` }).click();
  const dialog = grace.page.getByRole('dialog', { name: `Block ${fullName(ada)}?` });
  await expect(dialog).toContainText('They are not told.');
  await dialog.getByRole('button', { name: 'Block', exact: true }).click();
  await expect(grace.page.getByText(`You blocked ${fullName(ada)}.`)).toBeVisible();
  await expect(grace.page.getByRole('button', { name: `Unblock ${fullName(ada)}` })).toBeVisible();

  // Ada writes in their chat and is refused, with nothing said about a block.
  await ada.page.goto(`/chats/${encodeURIComponent(chatId)}`);
  await send(ada.page, 'Are you there?');
  await expect(
    ada.page.getByRole('alert').filter({ hasText: 'You cannot message this person.' }),
  ).toBeVisible();
  // Nor can she start a chat with Grace from Grace's profile.
  await ada.page.goto(`/user/${grace.account.username}`);
  await ada.page.getByRole('button', { name: 'Message', exact: true }).click();
  await expect(ada.page.getByText('Failed to start chat')).toBeVisible();
  await expect(ada.page).toHaveURL(new RegExp(`/user/${grace.account.username}$`));

  // Grace finds Ada in Settings' blocked people and unblocks her; Ada's next message goes through.
  await grace.page.goto('/settings');
  const blocked = grace.page.getByRole('list', { name: 'Blocked people' });
  await expect(blocked.getByRole('listitem')).toHaveCount(1);
  await expect(blocked).toContainText(`@${ada.account.username}`);
  await blocked.getByRole('button', { name: `Unblock ${fullName(ada)}` }).click();
  await expect(grace.page.getByText('You have not blocked anyone.')).toBeVisible();

  await ada.page.goto(`/chats/${encodeURIComponent(chatId)}`);
  await send(ada.page, 'Hello again');
  await grace.page.goto(`/chats/${encodeURIComponent(chatId)}`);
  await expect(grace.page.getByRole('region', { name: 'Messages' })).toContainText('Hello again');
});

test("blocking from a group's member list folds the blocked person's messages there until asked for", async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const alan = await person(browser, request, 'alan');
  const chatId = await groupWith(request, alan, 'Shared room', [ada, grace]);
  const path = `/groups/${encodeURIComponent(chatId)}`;

  // Grace blocks Ada from the group's member list; both stay members.
  await grace.page.goto(`${path}/settings`);
  await grace.page.getByRole('button', { name: `Block ${fullName(ada)}` }).click();
  await grace.page
    .getByRole('dialog', { name: `Block ${fullName(ada)}?` })
    .getByRole('button', { name: 'Block', exact: true })
    .click();
  await expect(grace.page.getByRole('button', { name: `Unblock ${fullName(ada)}` })).toBeVisible();

  // Ada's message reaches the group: Alan reads it, Grace sees it folded.
  await ada.page.goto(path);
  await send(ada.page, 'A word from Ada');
  await alan.page.goto(path);
  await expect(alan.page.getByRole('region', { name: 'Messages' })).toContainText('A word from Ada');
  await grace.page.goto(path);
  const folded = grace.page.locator('[data-blocked="true"]');
  await expect(folded).toHaveCount(1);
  await expect(folded).toContainText('Blocked message');
  await expect(grace.page.getByRole('region', { name: 'Messages' })).not.toContainText('A word from Ada');
  // 'show' unfolds that one message.
  await folded.getByRole('button').click();
  await expect(grace.page.getByRole('region', { name: 'Messages' })).toContainText('A word from Ada');
  await expect(folded).toHaveCount(0);
});

test('muting a group: no browser notification for its messages, a mention still notifies', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  await recordNotifications(ada);
  const chatId = await groupWith(request, grace, 'Noisy room', [ada]);
  const path = `/groups/${encodeURIComponent(chatId)}`;

  // Ada mutes the group from its settings, always.
  await ada.page.goto(`${path}/settings`);
  await ada.page.getByLabel('Mute for').selectOption({ label: 'Always' });
  await ada.page.getByRole('button', { name: 'Mute', exact: true }).click();
  await expect(ada.page.getByText('Muted. You are still notified when someone mentions you.')).toBeVisible();
  await expect(ada.page.getByRole('button', { name: 'Unmute' })).toBeVisible();

  // Away from the room, on the chat list: Grace writes. The list follows (a grey count), no notification.
  await ada.page.goto('/chats');
  const row = ada.page.getByRole('link', { name: /Noisy room/ });
  await expect(row.getByRole('img', { name: 'Muted' })).toBeVisible();
  await grace.page.goto(path);
  await send(grace.page, 'Chatter nobody needs to hear');
  await expect(row).toContainText('Chatter nobody needs');
  await expect(row.getByTestId('unread-count')).toHaveAttribute('data-muted', 'true');
  expect(await notifications(ada.page)).toEqual([]);

  // A mention of Ada in the muted group notifies her.
  await send(grace.page, `@${ada.account.username} your turn`);
  await expect.poll(async () => (await notifications(ada.page)).length).toBe(1);
  expect((await notifications(ada.page))[0]?.body).toContain('your turn');

  // Unmuted, a plain message notifies again.
  await ada.page.goto(`${path}/settings`);
  await ada.page.getByRole('button', { name: 'Unmute' }).click();
  await expect(ada.page.getByRole('button', { name: 'Mute', exact: true })).toBeVisible();
  // Back on the list, once its notification socket has said hello (the first unread count). The frame is
  // listened for as the socket appears: waiting for it after the socket's event could miss a frame already there.
  const hello = new Promise<void>((resolve) => {
    ada.page.on('websocket', (ws) => {
      if (ws.url().includes('/ws/notifications/')) ws.once('framereceived', () => resolve());
    });
  });
  await ada.page.goto('/chats');
  await hello;
  await expect(row).toBeVisible();
  await send(grace.page, 'Now you hear me');
  await expect
    .poll(async () => (await notifications(ada.page)).map((n) => n.body))
    .toContain('Now you hear me');
});

test('reporting a message from its menu and a person from their profile, with a confirmation', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await groupWith(request, grace, 'Reported room', [ada]);

  await grace.page.goto(`/groups/${encodeURIComponent(chatId)}`);
  await send(grace.page, 'Buy cheap watches here');
  await ada.page.goto(`/groups/${encodeURIComponent(chatId)}`);
  const message = ada.page.locator('[data-message-id]').filter({ hasText: 'Buy cheap watches here' });
  await message.hover();
  await openMessageMenu(message);
  await ada.page.getByRole('menuitem', { name: 'Report' }).click();

  const dialog = ada.page.getByRole('dialog', { name: 'Report this message' });
  await expect(dialog).toBeVisible();
  const axe = await new AxeBuilder({ page: ada.page }).include('dialog').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // A reason is asked for before anything is sent.
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Choose a reason.');
  await dialog.getByRole('radio', { name: 'Spam' }).check();
  await dialog.getByLabel('Note (optional)').fill('Posted in every group');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog).toBeHidden();
  await expect(
    ada.page.getByText('Thank you. Your report was sent to the operators of this server.'),
  ).toBeVisible();

  // The person, from their profile; a second report of them while the first is open is refused, said plainly.
  for (const attempt of [1, 2]) {
    await ada.page.goto(`/user/${grace.account.username}`);
    await ada.page.getByRole('button', { name: 'Report', exact: true }).click();
    const profileDialog = ada.page.getByRole('dialog', { name: `Report ${fullName(grace)}` });
    await profileDialog.getByRole('radio', { name: 'Harassment or bullying' }).check();
    await profileDialog.getByRole('button', { name: 'Send report' }).click();
    if (attempt === 1) {
      await expect(profileDialog).toBeHidden();
      await expect(ada.page.getByText('Thank you. Your report was sent').first()).toBeVisible();
    } else {
      await expect(profileDialog.getByRole('alert')).toHaveText('You have already reported this.');
    }
  }
});
