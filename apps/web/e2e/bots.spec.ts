import { BOT_TEXT, COMMAND_TEXT } from '@parley/protocol';
import { expect, test } from '@playwright/test';
import { expectAxeCleanLightAndDark } from './support/axe';
import { peoplePerTest } from './support/people';

// Settings → Bots: a person makes a bot and sees its token and signing secret once, is told plainly what is
// wrong with an events address, sets one, sees the (empty) delivery log, rotates the credentials and deletes the
// bot. axe is clean in light and dark at 1280 and 390 px.

const person = peoplePerTest();

test('a person makes a bot, sees its secrets once, sets its events address and deletes it', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const page = ada.page;
  await page.goto('/settings');
  await expect(page.getByRole('heading', { name: 'Bots' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('You have no bots yet.')).toBeVisible();

  const form = page.getByRole('form', { name: 'New bot' });
  const username = `ci-${Date.now().toString(36)}`;
  await form.getByLabel('Username', { exact: true }).fill(username);
  await form.getByLabel('Name', { exact: true }).fill('CI bot');
  await form.getByLabel(/Events address/).fill('ftp://example.com/');
  await form.getByRole('button', { name: 'Create bot' }).click();
  await expect(form.getByText(BOT_TEXT.badEventsUrl)).toBeVisible();
  // What was typed stays while the error shows.
  await expect(form.getByLabel('Username', { exact: true })).toHaveValue(username);
  await form.getByLabel(/Events address/).fill('');
  await form.getByRole('button', { name: 'Create bot' }).click();

  const token = page.getByLabel('Bot token', { exact: true });
  await expect(token).toHaveText(/^prl_[0-9A-Za-z]{43}$/);
  await expect(page.getByLabel('Signing secret', { exact: true })).toHaveText(/^whsec_/);
  const shown = await token.textContent();
  for (const [width, name] of [
    [1280, 'wide'],
    [390, 'narrow'],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await token.scrollIntoViewIfNeeded();
    await expectAxeCleanLightAndDark(page);
    await page.screenshot({ path: info.outputPath(`secrets-${name}.png`) });
  }
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await expect(token).toHaveCount(0);

  // The token works as the bot.
  const me = await request.get('/api/users/profile/', { headers: { Authorization: `Bearer ${shown}` } });
  expect((await me.json()).username).toBe(username);

  // Added to a group like anyone, it shows as a bot in the member list and on its profile.
  const headers = { Authorization: `Bearer ${ada.token}` };
  const group = await request.post('/api/chats/group/new/', { headers, data: { group_name: 'Ops' } });
  const chatId = (await group.json()).chat_id as string;
  const added = await request.post(`/api/chats/${chatId}/members/`, {
    headers,
    data: { members: [username] },
  });
  expect(added.ok(), await added.text()).toBe(true);
  await page.goto(`/groups/${chatId}/settings`);
  const member = page.getByRole('listitem').filter({ hasText: `@${username}` });
  await expect(member.getByText('Bot', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.goto(`/user/${username}`);
  await expect(page.getByRole('heading', { name: /CI bot/ }).getByText('Bot', { exact: true })).toBeVisible();
  await page.goto('/settings');

  const list = page.getByRole('list', { name: 'Your bots' });
  await expect(list.getByText(/^CI bot/)).toBeVisible();
  await list.getByRole('button', { name: /Manage/ }).click();
  const events = list.getByLabel('Events address (https)');
  await events.fill('http://127.0.0.1:9/hook');
  await list.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Events address saved')).toBeVisible();
  await expect(list.getByText('Events to http://127.0.0.1:9/hook')).toBeVisible();
  await expect(list.getByText('No events sent yet.')).toBeVisible();

  // A slash command: a bad name is told in place, a good one listed, then removed.
  const commandForm = list.getByRole('form', { name: /New command/ });
  await commandForm.getByLabel('Command', { exact: true }).fill('Deploy now!');
  await commandForm.getByLabel(/Command address/).fill('http://127.0.0.1:9/commands');
  await commandForm.getByRole('button', { name: 'Add command' }).click();
  await expect(commandForm.getByText(COMMAND_TEXT.badName)).toBeVisible();
  await commandForm.getByLabel('Command', { exact: true }).fill('deploy');
  await commandForm.getByLabel('Description', { exact: true }).fill('Ship the main branch');
  await commandForm.getByRole('button', { name: 'Add command' }).click();
  const commands = list.getByRole('list', { name: /Commands of/ });
  await expect(commands.getByText('/deploy')).toBeVisible();
  await expect(commands.getByText('Ship the main branch')).toBeVisible();
  await page.emulateMedia({ colorScheme: 'dark' });
  await list.scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('manage-narrow-dark.png') });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAxeCleanLightAndDark(page);

  await commands.getByRole('button', { name: 'Remove /deploy' }).click();
  await expect(list.getByText('No commands yet.')).toBeVisible();

  await list.getByRole('button', { name: 'New token and secret' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Make new ones' }).click();
  await expect(token).toHaveText(/^prl_/);
  expect(await token.textContent()).not.toBe(shown);
  const old = await request.get('/api/users/profile/', { headers: { Authorization: `Bearer ${shown}` } });
  expect(old.status()).toBe(401);
  await page.getByRole('button', { name: 'I have saved them' }).click();

  await list.getByRole('button', { name: 'Delete bot' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete bot' }).click();
  await expect(page.getByText('You have no bots yet.')).toBeVisible();
});
