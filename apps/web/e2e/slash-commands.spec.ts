import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { COMMAND_TEXT, SHRUG } from '@parley/protocol';
import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanAtBothWidths } from './support/axe';
import { groupChat, peoplePerTest } from './support/people';
import { openRoom, timeline } from './support/room';

// Slash commands in a group: Ada types '/' and the composer suggests the chat's commands (the built-ins and a
// bot's, answered by a bot server this test runs), picked with the keyboard; /shrug posts for Ben to see; the
// bot's private answer and /mute's show to Ada alone, 'Only visible to you', until dismissed. axe is clean with
// the list open and with the answers shown, in light and dark at 1280 and 390 px.

const person = peoplePerTest();

const box = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const commands = (page: Page) => page.getByRole('listbox', { name: 'Commands' });
const notes = (page: Page) => page.getByTestId('ephemeral-note');

test('suggests commands after /, posts a shrug, and shows an answer to its asker alone', async ({
  browser,
  request,
}, info) => {
  test.slow();
  // The bot's own server: it answers /status for the caller's eyes only.
  const bot = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'All systems green.', visibility: 'me' }));
    });
  });
  await new Promise<void>((resolve) => bot.listen(0, '127.0.0.1', resolve));
  try {
    const ada = await person(browser, request, 'ada');
    const ben = await person(browser, request, 'ben');
    const chatId = await groupChat(request, ada, 'Ops room', [ben]);
    const headers = { Authorization: `Bearer ${ada.token}` };
    const made = await request.post('/api/bots/', {
      headers,
      data: { username: `ops-${Date.now().toString(36)}`, display_name: 'Ops bot' },
    });
    expect(made.ok(), await made.text()).toBe(true);
    const { bot: madeBot } = await made.json();
    const registered = await request.post(`/api/bots/${madeBot.id}/commands/`, {
      headers,
      data: {
        command: 'status',
        description: 'How the services are doing',
        url: `http://127.0.0.1:${(bot.address() as AddressInfo).port}/status`,
      },
    });
    expect(registered.ok(), await registered.text()).toBe(true);
    const added = await request.post(`/api/chats/${chatId}/members/`, {
      headers,
      data: { members: [madeBot.username] },
    });
    expect(added.ok(), await added.text()).toBe(true);
    await Promise.all([openRoom(ada.page, `/groups/${chatId}`), openRoom(ben.page, `/groups/${chatId}`)]);

    // '/' opens the list, with the bot's command after the built-ins; typing narrows it.
    await box(ada.page).fill('/');
    await expect(commands(ada.page).getByRole('option')).toHaveCount(7);
    await expect(commands(ada.page).getByRole('option').last()).toContainText('/status');
    await expect(commands(ada.page).getByRole('option').last()).toContainText('Ops bot');
    await expect(box(ada.page)).toHaveAttribute('aria-activedescendant', /.+/);
    await expectAxeCleanAtBothWidths([ada.page, ada.page], commands, (width, which) =>
      info.outputPath(`list-${width}-${which === 'first' ? 'light' : 'dark'}.png`),
    );
    await box(ada.page).pressSequentially('sh');
    await expect(commands(ada.page).getByRole('option')).toHaveCount(1);
    await box(ada.page).press('Tab');
    await expect(box(ada.page)).toHaveValue('/shrug ');
    await expect(commands(ada.page)).toHaveCount(0);

    // Escape closes the list; typing a name on opens it again.
    await box(ada.page).fill('/mu');
    await expect(commands(ada.page)).toBeVisible();
    await box(ada.page).press('Escape');
    await expect(commands(ada.page)).toHaveCount(0);

    // /shrug posts a message both see.
    await box(ada.page).fill('/shrug it works');
    await box(ada.page).press('Enter');
    await expect(box(ada.page)).toHaveValue('');
    for (const page of [ada.page, ben.page])
      await expect(timeline(page).getByText(`it works ${SHRUG}`, { exact: true })).toBeVisible();

    // Arrows and Enter pick /status; its answer is Ada's alone.
    await box(ada.page).fill('/st');
    await expect(commands(ada.page).getByRole('option')).toHaveCount(1);
    await box(ada.page).press('Enter');
    await expect(box(ada.page)).toHaveValue('/status ');
    await box(ada.page).press('Enter');
    await expect(notes(ada.page)).toContainText('All systems green.');
    await expect(notes(ada.page)).toContainText(COMMAND_TEXT.onlyVisibleToYou);
    await box(ada.page).fill('/mute 8h');
    await box(ada.page).press('Enter');
    await expect(notes(ada.page).nth(1)).toContainText(COMMAND_TEXT.muted('for 8 hours'));

    // An unknown command says so and keeps the text.
    await box(ada.page).fill('/deploy');
    await box(ada.page).press('Enter');
    await expect(ada.page.getByRole('alert')).toContainText(COMMAND_TEXT.unknown('deploy'));
    await expect(box(ada.page)).toHaveValue('/deploy');
    await box(ada.page).fill('');

    await expectAxeCleanAtBothWidths(
      [ada.page, ada.page],
      (page) => notes(page).first(),
      (width, which) => info.outputPath(`answers-${width}-${which === 'first' ? 'light' : 'dark'}.png`),
    );
    await expect(ben.page.getByText('All systems green.')).toHaveCount(0);
    await expect(ben.page.getByTestId('ephemeral-note')).toHaveCount(0);

    await notes(ada.page).first().getByRole('button', { name: 'Dismiss' }).click();
    await expect(notes(ada.page)).toHaveCount(1);
  } finally {
    bot.closeAllConnections();
    await new Promise((resolve) => bot.close(resolve));
  }
});
