import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { fullName, type Person, peoplePerTest, privateChat } from './support/people';
import { openMessageMenu } from './support/room';

// The conversation essentials, two people in two browser contexts over the real sockets of the
// production build: reply, react, edit, delete (with the mouse and by keyboard alone), mentions, the unread
// divider, 'Jump to latest' and drafts.

const person = peoplePerTest();

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const list = (page: Page) => page.getByRole('region', { name: 'Messages' });
/** A message by its own text (a reply's quote of another message does not count). */
const bubble = (page: Page, text: string) =>
  list(page)
    .locator('[data-message-id]')
    .filter({ has: page.locator('p', { hasText: text }) });

async function openRoom(page: Page, chatId: string) {
  await page.goto(`/chats/${chatId}`);
  await expect(composer(page)).toBeVisible();
  // A private room names its connection only while it is not connected.
  await expect(page.locator('[data-status]:not([data-status="connected"])')).toHaveCount(0);
}

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(bubble(page, text).last()).toBeVisible();
}

/** Opens a message's actions menu the way a mouse user does: hover, then the button that appears. */
async function menuOf(page: Page, text: string) {
  const row = bubble(page, text).last();
  await row.hover();
  await openMessageMenu(row);
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  return menu;
}

/** Ada and Grace, each in their own browser, both in their private chat. */
async function twoInOneRoom(browser: Browser, request: APIRequestContext) {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, chatId);
  await openRoom(grace.page, chatId);
  return { ada, grace, chatId };
}

/**
 * Sends messages on a room socket of `p`'s own, opened in their page (same origin, so the server takes it),
 * each after the last one's echo, keeping under the 20-per-10-seconds limit. Returns the messages' ids.
 */
async function sendOverSocket(
  p: Person,
  chatId: string,
  bodies: string[],
  { replyTo, read = [] }: { replyTo?: number; read?: number[] } = {},
): Promise<number[]> {
  return p.page.evaluate(
    async ({ token, chatId, bodies, replyTo, read }) => {
      const res = await fetch('/api/ws/ticket/', {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
      });
      const { ticket } = await res.json();
      const ws = new WebSocket(
        `ws://${location.host}/ws/chatroom/${chatId}/?token=${encodeURIComponent(ticket)}`,
      );
      await new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
      const ids: number[] = [];
      for (const [i, body] of bodies.entries()) {
        if (i > 0 && i % 18 === 0) await new Promise((r) => setTimeout(r, 10_500));
        const client_id = crypto.randomUUID();
        const echoed = new Promise<number>((resolve) => {
          const onMessage = (event: MessageEvent) => {
            const frame = JSON.parse(event.data);
            if (frame.type === 'chat_message' && frame.client_id === client_id) {
              ws.removeEventListener('message', onMessage);
              resolve(frame.message.id);
            }
          };
          ws.addEventListener('message', onMessage);
        });
        ws.send(
          JSON.stringify({
            type: 'chat_message',
            body,
            client_id,
            ...(replyTo ? { reply_to: replyTo } : {}),
          }),
        );
        ids.push(await echoed);
      }
      // Others' messages this person has read, as the room reports them while it is on screen.
      if (read.length > 0) ws.send(JSON.stringify({ type: 'read_messages', message_ids: read }));
      await new Promise((r) => setTimeout(r, 300));
      ws.close();
      return ids;
    },
    { token: p.token, chatId, bodies, replyTo, read },
  );
}

/** Waits until the server counts nothing unread for `p` in the chat (their read reports arrived). */
async function allRead(request: APIRequestContext, p: Person, chatId: string) {
  await expect
    .poll(async () => {
      const res = await request.get(`/api/chats/${chatId}/`, {
        headers: { Authorization: `Bearer ${p.token}` },
      });
      return (await res.json()).unread_count;
    })
    .toBe(0);
}

test('reply, react, edit and delete, seen live by the other person', async ({ browser, request }) => {
  const { ada, grace } = await twoInOneRoom(browser, request);

  await send(grace.page, 'Where shall we meet?');
  await expect(bubble(ada.page, 'Where shall we meet?')).toBeVisible();

  // Reply: the composer shows the quote; Escape cancels; the reply carries it to both.
  await (await menuOf(ada.page, 'Where shall we meet?'))
    .getByRole('menuitem', { name: 'Reply', exact: true })
    .click();
  const mode = ada.page.getByTestId('composer-mode');
  await expect(mode).toContainText(`Replying to ${fullName(grace)}`);
  await expect(composer(ada.page)).toBeFocused();
  await composer(ada.page).press('Escape');
  await expect(mode).toBeHidden();
  await (await menuOf(ada.page, 'Where shall we meet?'))
    .getByRole('menuitem', { name: 'Reply', exact: true })
    .click();
  await send(ada.page, 'At the library');
  await expect(mode).toBeHidden();
  const reply = bubble(grace.page, 'At the library');
  await expect(reply.getByTestId('reply-quote')).toContainText('Where shall we meet?');
  await reply.getByTestId('reply-quote').click();
  await expect(bubble(grace.page, 'Where shall we meet?')).toHaveAttribute('data-highlighted', 'true');

  // React: a chip with the count and who reacted; clicking a chip toggles one's own reaction.
  const menu = await menuOf(grace.page, 'At the library');
  await menu.getByRole('menuitem', { name: 'React' }).click();
  await grace.page.getByRole('menuitem', { name: 'React with 👍' }).click();
  const chip = (page: Page) => bubble(page, 'At the library').getByTestId('reaction');
  await expect(chip(ada.page)).toHaveText('👍1');
  await expect(chip(ada.page)).toHaveAttribute('title', `${fullName(grace)} reacted with 👍`);
  await expect(chip(ada.page)).toHaveAttribute('aria-pressed', 'false');
  await chip(ada.page).click();
  await expect(chip(ada.page)).toHaveText('👍2');
  await expect(chip(ada.page)).toHaveAttribute('aria-pressed', 'true');
  await expect(chip(grace.page)).toHaveText('👍2');
  await expect(chip(grace.page)).toHaveAttribute('title', `You, ${fullName(ada)} reacted with 👍`);
  await chip(ada.page).click();
  await expect(chip(grace.page)).toHaveText('👍1');

  // Edit: Up in the empty composer edits one's last message; Escape cancels; Enter saves.
  await composer(ada.page).click();
  await composer(ada.page).press('ArrowUp');
  await expect(mode).toContainText('Editing message');
  await expect(composer(ada.page)).toHaveValue('At the library');
  await composer(ada.page).press('Escape');
  await expect(mode).toBeHidden();
  await expect(composer(ada.page)).toHaveValue('');
  await (await menuOf(ada.page, 'At the library')).getByRole('menuitem', { name: 'Edit' }).click();
  await composer(ada.page).fill('At the city library');
  await composer(ada.page).press('Enter');
  await expect(mode).toBeHidden();
  const edited = bubble(grace.page, 'At the city library');
  await expect(edited.getByRole('button', { name: /^Edited .*Show earlier versions$/ })).toHaveText(
    '(edited)',
  );
  await edited.getByText('(edited)').click();
  const versions = grace.page.getByRole('dialog', { name: 'Earlier versions' });
  await expect(versions.getByRole('listitem').first()).toContainText('At the library');
  await versions.getByRole('button', { name: 'Close' }).click();
  await expect(versions).toBeHidden();

  // Grace has no Edit or Delete on Ada's message in a private chat (Report is safety.spec.ts's).
  const other = await menuOf(grace.page, 'At the city library');
  await expect(other.getByRole('menuitem')).toHaveText([
    'Reply',
    'React',
    'Reply in thread',
    'Forward',
    'Pin',
    'Save',
    'Copy text',
    'Report',
  ]);
  // The list scrolling by itself or the window resizing (a phone's keyboard) keeps it open by its message.
  await grace.page.evaluate(() => {
    window.dispatchEvent(new Event('resize'));
    document.querySelector('[data-message-id]')?.dispatchEvent(new Event('scroll'));
  });
  await expect(other).toBeVisible();
  await grace.page.keyboard.press('Escape');
  await expect(other).toBeHidden();

  // Delete, after the confirmation: both see the placeholder, and the quote of it too.
  await (await menuOf(grace.page, 'Where shall we meet?')).getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = grace.page.getByRole('dialog', { name: 'Delete message?' });
  await expect(confirm).toContainText('This message will be deleted for everyone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  for (const page of [ada.page, grace.page]) {
    await expect(bubble(page, 'Where shall we meet?')).toHaveCount(0);
    await expect(list(page).getByText('This message was deleted')).toHaveCount(2);
  }
});

/** Presses `key` until `target` has the focus (a few presses at most), as someone moving by keyboard does. */
async function pressUntilFocused(page: Page, key: string, target: Locator, most = 12) {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press(key);
  }
  await expect(target).toBeFocused();
}

test("a message's actions by keyboard alone: react, reply, and Escape closes the menu", async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  await send(grace.page, 'Keys only today');
  const row = bubble(ada.page, 'Keys only today');
  await expect(row).toBeVisible();
  const actionsButton = row.getByRole('button', { name: 'Message actions' });
  const menu = ada.page.getByRole('menu');

  // From the messages area, Tab reaches the message's actions button (shown on focus).
  await list(ada.page).focus();
  await pressUntilFocused(ada.page, 'Tab', actionsButton);
  await expect(actionsButton).toBeVisible();

  // Enter opens the menu on its first item; the arrows move; Escape closes it and gives the focus back.
  await ada.page.keyboard.press('Enter');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Reply', exact: true })).toBeFocused();
  await ada.page.keyboard.press('ArrowDown');
  await expect(menu.getByRole('menuitem', { name: 'React' })).toBeFocused();
  await ada.page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(actionsButton).toBeFocused();

  // React: Enter on React shows the emoji, the arrows pick one, Enter reacts; the focus comes back.
  await ada.page.keyboard.press('Enter');
  await ada.page.keyboard.press('ArrowDown');
  await ada.page.keyboard.press('Enter');
  await expect(ada.page.getByRole('menu', { name: 'Pick a reaction' })).toBeVisible();
  await expect(ada.page.getByRole('menuitem', { name: 'React with 👍' })).toBeFocused();
  await ada.page.keyboard.press('ArrowRight');
  await expect(ada.page.getByRole('menuitem', { name: 'React with ❤️' })).toBeFocused();
  await ada.page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(actionsButton).toBeFocused();
  const chip = (page: Page) => bubble(page, 'Keys only today').getByTestId('reaction');
  await expect(chip(ada.page)).toHaveText('❤️1');
  await expect(chip(ada.page)).toHaveAttribute('aria-pressed', 'true');
  await expect(chip(grace.page)).toHaveText('❤️1');
  // Grace's screen reader hears it; Ada's own reaction is not announced to her.
  await expect(grace.page.getByTestId('change-note')).toHaveText(`${fullName(ada)} reacted ❤️`);
  await expect(ada.page.getByTestId('change-note')).toHaveText('');

  // Reply: Enter on the first item puts the quote over the composer, which takes the focus.
  await ada.page.keyboard.press('Enter');
  await expect(menu.getByRole('menuitem', { name: 'Reply', exact: true })).toBeFocused();
  await ada.page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  const mode = ada.page.getByTestId('composer-mode');
  await expect(mode).toContainText(`Replying to ${fullName(grace)}`);
  await expect(composer(ada.page)).toBeFocused();
  await ada.page.keyboard.type('Keyboard reply');
  await ada.page.keyboard.press('Enter');
  await expect(mode).toBeHidden();
  await expect(bubble(grace.page, 'Keyboard reply').getByTestId('reply-quote')).toContainText(
    'Keys only today',
  );
});

test('mentions: the composer suggests members by keyboard, the message links to the profile', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);

  await composer(ada.page).pressSequentially('Thanks @gra');
  const suggestions = ada.page.getByRole('listbox', { name: 'Mention someone' });
  await expect(suggestions.getByRole('option')).toHaveCount(1);
  await expect(suggestions.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
  await expect(suggestions.getByRole('option').first()).toContainText(`@${grace.account.username}`);
  await composer(ada.page).press('Escape');
  await expect(suggestions).toBeHidden();
  await composer(ada.page).press('Backspace');
  await expect(suggestions).toBeVisible();
  await composer(ada.page).press('Enter');
  await expect(suggestions).toBeHidden();
  await expect(composer(ada.page)).toHaveValue(`Thanks @${grace.account.username} `);
  await composer(ada.page).pressSequentially('for the notes');
  await composer(ada.page).press('Enter');

  const mention = (page: Page) =>
    bubble(page, 'for the notes').getByRole('link', { name: `@${grace.account.username}` });
  await expect(mention(ada.page)).toHaveAttribute('href', `/user/${grace.account.username}`);
  await expect(mention(grace.page)).toHaveAttribute('href', '/profile');
  await mention(ada.page).click();
  await expect(ada.page).toHaveURL(`/user/${grace.account.username}`);
});

test('the room opens at the first unread message under a divider, and offers Jump to latest', async ({
  browser,
  request,
}) => {
  const { ada, grace, chatId } = await twoInOneRoom(browser, request);
  for (let i = 1; i <= 6; i++) await send(grace.page, `Read before ${i}`);
  await expect(bubble(ada.page, 'Read before 6')).toBeVisible();
  await allRead(request, ada, chatId);

  // Nothing unread: the room opens at the bottom, without a divider.
  await openRoom(ada.page, chatId);
  await expect(bubble(ada.page, 'Read before 6')).toBeInViewport();
  await expect(ada.page.getByTestId('unread-divider')).toHaveCount(0);

  await ada.page.goto('/chats');
  for (let i = 1; i <= 10; i++) await send(grace.page, `Unread ${i}/10`);
  await openRoom(ada.page, chatId);
  const divider = ada.page.getByTestId('unread-divider');
  await expect(divider).toHaveText('New messages');
  await expect(divider).toBeInViewport();
  await expect(bubble(ada.page, 'Unread 1/10')).toBeInViewport();
  // The divider sits right above the first unread message.
  const [dividerBox, firstBox] = [
    await divider.boundingBox(),
    await bubble(ada.page, 'Unread 1/10').boundingBox(),
  ];
  expect(Math.abs(dividerBox!.y + dividerBox!.height - firstBox!.y)).toBeLessThanOrEqual(2);

  // Scrolled up, a new message does not pull the view down: 'Jump to latest' counts what lies below.
  await list(ada.page).evaluate((el) => {
    el.scrollTop = 0;
  });
  await send(grace.page, 'The newest one');
  const jump = ada.page.getByRole('button', { name: /^Jump to latest/ });
  await expect(jump).toBeVisible();
  await expect(jump).toHaveAccessibleName(/^Jump to latest \d+ newer messages?$/);
  await expect(bubble(ada.page, 'The newest one')).not.toBeInViewport();
  await jump.click();
  await expect(bubble(ada.page, 'The newest one')).toBeInViewport();
  await expect(jump).toBeHidden();
});

test('a draft stays per chat and per account across leaving and a reload, and goes when sent', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, chatId);

  await composer(ada.page).fill('Half a thought');
  await ada.page.reload();
  await expect(composer(ada.page)).toHaveValue('Half a thought');
  await ada.page.goto('/chats');
  await openRoom(ada.page, chatId);
  await expect(composer(ada.page)).toHaveValue('Half a thought');
  // Kept under Ada's user id: another account on this browser has its own key.
  const keys = await ada.page.evaluate(() => Object.keys(localStorage).filter((k) => k.includes('draft')));
  expect(keys).toEqual([`parley:draft:${ada.user.id}:${chatId}`]);

  // Grace, in the same chat, never sees it.
  await openRoom(grace.page, chatId);
  await expect(composer(grace.page)).toHaveValue('');

  await composer(ada.page).press('Enter');
  await expect(bubble(ada.page, 'Half a thought')).toBeVisible();
  await expect(composer(ada.page)).toHaveValue('');
  await ada.page.reload();
  await expect(composer(ada.page)).toHaveValue('');
});

test('a quote of a message further back than the loaded page loads it (?around=) and highlights it', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await Promise.all([ada.page.goto('/chats'), grace.page.goto('/chats')]);
  const [originalId] = await sendOverSocket(grace, chatId, ['The original question']);
  const fillers = (who: string) =>
    Array.from({ length: 26 }, (_, i) => `Filler ${who} ${String(i + 1).padStart(2, '0')}`);
  const [, graces] = await Promise.all([
    sendOverSocket(ada, chatId, fillers('a')),
    sendOverSocket(grace, chatId, fillers('g')),
  ]);
  await sendOverSocket(ada, chatId, ['The answer, far below'], {
    replyTo: originalId,
    read: [originalId!, ...graces],
  });
  // All read: the room opens at the bottom, with the original out of the loaded page.
  await allRead(request, ada, chatId);

  await openRoom(ada.page, chatId);
  const answer = bubble(ada.page, 'The answer, far below');
  await expect(answer.getByTestId('reply-quote')).toContainText('The original question');
  await expect(bubble(ada.page, 'The original question')).toHaveCount(0);
  await answer.getByTestId('reply-quote').click();
  const original = bubble(ada.page, 'The original question');
  // Highlighted from when it is drawn until a while after it came into view: checked first, the one passing state.
  await expect(original).toHaveAttribute('data-highlighted', 'true');
  await expect(original).toBeInViewport();
  await expect(original).toBeFocused();
  // The messages around it came with it, each once. Which of the two people's fillers follow it depends on how
  // their concurrent sends interleaved, and the list draws only the rows near the view: so the rows drawn are
  // checked, not two named fillers (one of them may be a screen or more further down).
  const drawn = await list(ada.page)
    .locator('[data-message-id] [data-testid="message-body"]')
    .allTextContents();
  expect(new Set(drawn).size).toBe(drawn.length);
  expect(drawn[drawn.indexOf('The original question') + 1]).toMatch(/^Filler [ag] 01$/);
});

test("a group's admin may delete anyone's message; a member only their own", async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const auth = { Authorization: `Bearer ${ada.token}` };
  const created = await request.post('/api/chats/group/new/', {
    data: { group_name: 'Book club' },
    headers: auth,
  });
  const { chat_id: groupId } = await created.json();
  const added = await request.post(`/api/chats/${groupId}/members/`, {
    data: { members: [grace.account.username] },
    headers: auth,
  });
  expect(added.ok(), await added.text()).toBe(true);
  for (const p of [ada, grace]) {
    await p.page.goto(`/groups/${groupId}`);
    await expect(composer(p.page)).toBeVisible();
  }
  await send(ada.page, 'Chapter three by Friday');
  await send(grace.page, 'Spoilers: the butler did it');

  const members = await menuOf(grace.page, 'Chapter three by Friday');
  await expect(members.getByRole('menuitem', { name: 'Delete' })).toHaveCount(0);
  await grace.page.keyboard.press('Escape');

  await (await menuOf(ada.page, 'Spoilers: the butler did it'))
    .getByRole('menuitem', { name: 'Delete' })
    .click();
  await ada.page
    .getByRole('dialog', { name: 'Delete message?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(bubble(grace.page, 'Spoilers: the butler did it')).toHaveCount(0);
  await expect(list(grace.page).getByText('This message was deleted')).toBeVisible();
});

test('on a phone a long press on a message opens its menu', async ({ browser, request }) => {
  const ada = await person(browser, request, 'ada', { viewport: { width: 390, height: 844 } });
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, chatId);
  await send(ada.page, 'Hold me down');
  const text = bubble(ada.page, 'Hold me down').locator('p');
  // A short tap does nothing; a press held half a second opens the menu.
  await text.dispatchEvent('touchstart');
  await text.dispatchEvent('touchend');
  await ada.page.waitForTimeout(700);
  await expect(ada.page.getByRole('menu')).toBeHidden();
  await text.dispatchEvent('touchstart');
  await expect(ada.page.getByRole('menu', { name: 'Message actions' })).toBeVisible();
  await text.dispatchEvent('touchend');
  await expect(ada.page.getByRole('menuitem', { name: 'Reply', exact: true })).toBeFocused();
});
