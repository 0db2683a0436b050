import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  expect,
  type Page,
  test,
} from '@playwright/test';
import { createVerifiedAccount, type TestAccount } from './support/accounts';
import { freePort, startServer, untilHealthy } from './support/server-process';

// The chat journeys: two people in two browser contexts, live over the real sockets of the production build.

const openContexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(openContexts.splice(0).map((context) => context.close()));
});

interface Person {
  account: TestAccount;
  token: string;
  user: { id: number; username: string; first_name: string; last_name: string };
  page: Page;
}

/** A verified account, signed in through the API, in its own browser context with the session in localStorage. */
async function person(
  browser: Browser,
  request: APIRequestContext,
  prefix: string,
  baseURL?: string,
): Promise<Person> {
  const account = await createVerifiedAccount(request, prefix);
  const login = await request.post('/api/users/login/', {
    data: { email: account.email, password: account.password, remember_me: true },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const { token, ...user } = await login.json();
  const context = await browser.newContext(baseURL ? { baseURL } : {});
  openContexts.push(context);
  await context.addInitScript(
    ({ t, u }) => {
      if (!window.localStorage.getItem('token')) {
        window.localStorage.setItem('token', t);
        window.localStorage.setItem('user', u);
        window.localStorage.setItem('rememberMe', 'true');
      }
      // Browser notifications are recorded instead of shown, and permission counts as granted.
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
      // Sockets are kept where the test can drop them.
      const sockets: WebSocket[] = [];
      Object.assign(window, { __sockets: sockets });
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      } as typeof WebSocket;
    },
    { t: token as string, u: JSON.stringify(user) },
  );
  return { account, token, user, page: await context.newPage() };
}

const fullName = (p: Person) => `${p.account.first_name} ${p.account.last_name}`;
const composer = (page: Page) => page.getByPlaceholder('Type your message...');
const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const bubble = (page: Page, text: string) =>
  messages(page).locator('[data-message-id]').filter({ hasText: text });
const notifications = (page: Page) =>
  page.evaluate(
    () => (window as unknown as { __notifications: Array<{ tag?: string; body?: string }> }).__notifications,
  );

async function send(page: Page, text: string) {
  await composer(page).fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(composer(page)).toHaveValue('');
}

/** Opens the private chat with `other` from the Message button on their public profile. */
async function startChatFromProfile(me: Person, other: Person): Promise<string> {
  await me.page.goto(`/user/${other.account.username}`);
  await me.page.getByRole('button', { name: 'Message' }).click();
  await expect(me.page).toHaveURL(/\/chats\/[^/]+$/);
  return decodeURIComponent(new URL(me.page.url()).pathname.split('/')[2]!);
}

test('two people chat one-to-one live: previews, unread counts, notifications, typing and ticks to Read', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');

  await grace.page.goto('/chats');
  await expect(grace.page.getByText('No chats yet')).toBeVisible();
  await expect(grace.page.getByText('Start a conversation with someone!')).toBeVisible();
  await expect(grace.page.getByTestId('chat-count')).toHaveText('0 chats');

  const chatId = await startChatFromProfile(ada, grace);
  await expect(ada.page.getByRole('heading', { name: fullName(grace) })).toBeVisible();
  await expect(ada.page.getByRole('link', { name: 'Chat Settings' })).toHaveAttribute(
    'href',
    `/chats/${chatId}/settings`,
  );
  await expect(ada.page.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await expect(ada.page.getByText('No messages yet. Say hello!')).toBeVisible();
  // Grace is not in the room: a grey dot.
  await expect(ada.page.getByRole('img', { name: 'Not in this chat' })).toBeVisible();

  // A long first message while Grace looks at her list: preview cut to 40 characters, unread 1, a notification.
  const long = 'Hello Grace! This first message is rather long, to check the preview.';
  await send(ada.page, long);
  const mine = bubble(ada.page, long);
  await expect(mine).toBeVisible();
  // Grace's browser has the message only as a notification: sent (or delivered), not read.
  await expect(mine.getByRole('img', { name: /^(Sent|Delivered)$/ })).toBeVisible();

  const row = grace.page.getByRole('link', { name: new RegExp(fullName(ada)) });
  await expect(row).toContainText(`${long.slice(0, 40)}...`);
  await expect(row.getByTestId('unread-count')).toHaveText(/^1/);
  await expect(grace.page.getByTestId('chat-count')).toHaveText('1 chat');
  await expect(grace.page.getByTestId('unread-badge')).toHaveText(/^1/);
  await expect.poll(() => notifications(grace.page)).toContainEqual(expect.objectContaining({ tag: chatId }));

  // Grace opens the chat: the message is delivered and read, Ada sees two blue ticks and a green dot.
  await row.click();
  await expect(grace.page).toHaveURL(`/chats/${chatId}`);
  await expect(bubble(grace.page, long)).toBeVisible();
  await expect(mine.getByRole('img', { name: 'Read' })).toBeVisible();
  await expect(ada.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  await expect(grace.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  await expect(grace.page.getByTestId('unread-badge')).toHaveCount(0);

  // Typing shows on the other side, and stops when the text is cleared.
  await composer(grace.page).fill('Hi A');
  await expect(ada.page.getByTestId('typing')).toHaveText(/is typing\.\.\./);
  await composer(grace.page).fill('');
  await expect(ada.page.getByTestId('typing')).toHaveText('');
  await composer(grace.page).pressSequentially('Hi Ada');
  await expect(ada.page.getByTestId('typing')).toHaveText(/is typing\.\.\./);
  await grace.page.keyboard.press('Enter');
  await expect(ada.page.getByTestId('typing')).toHaveText('');

  // Both ways, live; each message once.
  await expect(bubble(ada.page, 'Hi Ada')).toHaveCount(1);
  await expect(bubble(grace.page, 'Hi Ada').getByRole('img', { name: 'Read' })).toBeVisible();
  await send(ada.page, 'How are you?');
  await expect(bubble(grace.page, 'How are you?')).toHaveCount(1);
  await expect(bubble(ada.page, 'How are you?').getByRole('img', { name: 'Read' })).toBeVisible();
  await expect(messages(grace.page).getByText('Today')).toBeVisible();

  // The list shows the newest preview and nothing unread for the one who read it.
  await ada.page.getByRole('link', { name: 'Back to chats' }).click();
  // The room's header also names Grace: wait for the list itself before looking for her row.
  await expect(ada.page).toHaveURL(/\/chats$/);
  const adaRow = ada.page.getByRole('link', { name: new RegExp(fullName(grace)) });
  await expect(adaRow).toContainText('How are you?');
  await expect(adaRow.getByTestId('unread-count')).toHaveCount(0);

  // A message while Ada is away from the room counts as unread for her, then reading clears it.
  await send(grace.page, 'Fine, thanks');
  await expect(adaRow).toContainText('Fine, thanks');
  await expect(adaRow.getByTestId('unread-count')).toHaveText(/^1/);
  await adaRow.click();
  await expect(bubble(ada.page, 'Fine, thanks')).toBeVisible();
  await expect(bubble(grace.page, 'Fine, thanks').getByRole('img', { name: 'Read' })).toBeVisible();
});

test('a dropped connection reconnects and shows what was sent meanwhile once each', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await startChatFromProfile(ada, grace);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(grace.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  await send(ada.page, 'before the drop');
  await expect(bubble(grace.page, 'before the drop')).toBeVisible();

  // Grace's room socket drops (not by leaving); her reconnect waits at the ticket until the test lets it through.
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  await grace.page.route('**/api/ws/ticket/', async (route) => {
    await gate;
    await route.continue();
  });
  await grace.page.evaluate(() => {
    for (const ws of (window as unknown as { __sockets: WebSocket[] }).__sockets) {
      if (ws.url.includes('/ws/chatroom/') && ws.readyState === WebSocket.OPEN) ws.close(4000);
    }
  });
  await expect(ada.page.getByRole('img', { name: 'Not in this chat' })).toBeVisible();
  await send(ada.page, 'while you were away 1');
  await send(ada.page, 'while you were away 2');
  // Sending while disconnected says so with SPEC's text; the message waits in the outbox, pending.
  await composer(grace.page).fill('are you there?');
  await grace.page.getByRole('button', { name: 'Send message' }).click();
  await expect(grace.page.getByRole('alert')).toHaveText('Not connected to chat. Trying to reconnect...');
  await expect(composer(grace.page)).toHaveValue('');
  const waiting = messages(grace.page).locator('[data-client-id]').filter({ hasText: 'are you there?' });
  await expect(waiting.getByRole('img', { name: 'Sending' })).toBeVisible();
  release();

  await expect(ada.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  await expect(grace.page.getByRole('alert')).toHaveCount(0);
  await expect(bubble(grace.page, 'while you were away 1')).toHaveCount(1);
  await expect(bubble(grace.page, 'while you were away 2')).toHaveCount(1);
  await expect(bubble(grace.page, 'before the drop')).toHaveCount(1);
  // The reconnect sent what waited: it lands once.
  await expect(bubble(ada.page, 'are you there?')).toHaveCount(1);
  await expect(waiting).toHaveCount(0);
  await expect(bubble(ada.page, 'while you were away 2').getByRole('img', { name: 'Read' })).toBeVisible();
});

test('a group is created from the chat list and used; unknown chats are not found', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const page = ada.page;
  await page.goto('/chats');
  await expect(page.getByRole('heading', { name: 'My Chats' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Chat' })).toHaveAttribute('href', '/');

  await page.getByRole('button', { name: 'New Group' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Group' });
  await dialog.getByRole('button', { name: 'Create Group' }).click();
  await expect(dialog.getByText('Group name is required.')).toBeVisible();
  await dialog.getByLabel('Group name').fill('Weekend hikers');
  await dialog.getByRole('button', { name: 'Create Group' }).click();

  await expect(page).toHaveURL(/\/groups\/[^/]+$/);
  const groupId = decodeURIComponent(new URL(page.url()).pathname.split('/')[2]!);
  await expect(page.getByRole('heading', { name: 'Weekend hikers' })).toBeVisible();
  await expect(page.getByText('Group chat')).toBeVisible();
  await expect(page.getByTestId('online-count')).toHaveText('1 online');
  await expect(page.getByRole('status').filter({ hasText: 'Connected' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Group Settings' })).toHaveAttribute(
    'href',
    `/groups/${groupId}/settings`,
  );
  await send(page, 'First!');
  await expect(bubble(page, 'First!').getByRole('img', { name: 'Sent' })).toBeVisible();

  // The same chat under the other kind of address moves to the right one.
  await page.goto(`/chats/${groupId}`);
  await expect(page).toHaveURL(`/groups/${groupId}`);

  await page.getByRole('link', { name: 'Back to chats' }).click();
  const row = page.getByRole('link', { name: /Weekend hikers/ });
  await expect(row).toContainText('1 member');
  await expect(row).toContainText('First!');
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();

  await page.goto('/chats/no-such-chat');
  await expect(page.getByRole('heading', { name: 'Chat not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to Chats' }).click();
  await expect(page).toHaveURL('/chats');
  await page.goto('/chat-main');
  await expect(page).toHaveURL('/chats');
});

test('a 10,000-message history loads older pages on scrolling up without jumping, with few rows mounted', async ({
  browser,
  request,
}) => {
  // Every wait below is for something to happen, not for a fixed time; this is the ceiling on a loaded machine.
  test.setTimeout(300_000);
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await startChatFromProfile(ada, grace);
  const page = ada.page;

  // The history is served in the page from a made-up 10,000-message chat (fast enough to page through all of
  // it); the socket stays real.
  const TOTAL = 10_000;
  await page.addInitScript(
    ({ chatId, total, me, other }) => {
      const start = Date.now() - total * 60_000;
      const fake = (id: number) => {
        const who = id % 3 === 0 ? me : other;
        return {
          id,
          sender: who.id,
          sender_name: who.name,
          sender_username: who.username,
          sender_avatar: null,
          body:
            id % 7 === 0
              ? `Message ${id} is a longer one that wraps onto a second line in a narrow window.`
              : `Message ${id}`,
          files: [],
          is_read: true,
          is_delivered: true,
          is_sent: true,
          is_error: false,
          kind: 'user',
          timestamp: new Date(start + id * 60_000).toISOString(),
          chatroom: chatId,
          client_id: null,
          edited_at: null,
          is_deleted: false,
          reply_to: null,
          reactions: [],
          mentions: [],
        };
      };
      const nativeFetch = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const url = new URL(
          typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
          location.href,
        );
        if (!url.pathname.startsWith(`/api/chats/${chatId}/messages/`)) return nativeFetch(input, init);
        const limit = Number(url.searchParams.get('limit') ?? 50);
        const before = url.searchParams.get('before');
        const after = url.searchParams.get('after');
        const ids: number[] = [];
        if (after)
          for (let id = Number(after) + 1; id <= Math.min(total, Number(after) + limit); id++) ids.push(id);
        else {
          const end = before ? Number(before) - 1 : total;
          for (let id = Math.max(1, end - limit + 1); id <= end; id++) ids.push(id);
        }
        // An older page is held until the test lets it go, as a slow network would hold it, so the test sees the
        // view before and after one arrives however slowly the machine draws.
        const gate = window as unknown as { __olderPagesFree?: boolean; __releaseOlderPage?: () => void };
        if (before && !gate.__olderPagesFree) {
          await new Promise<void>((resolve) => {
            gate.__releaseOlderPage = resolve;
          });
        }
        return new Response(JSON.stringify(ids.map(fake)), {
          headers: { 'Content-Type': 'application/json' },
        });
      };
    },
    {
      chatId,
      total: TOTAL,
      me: { id: ada.user.id, name: fullName(ada), username: ada.account.username },
      other: { id: grace.user.id, name: fullName(grace), username: grace.account.username },
    },
  );
  await page.goto(`/chats/${chatId}`);
  const list = messages(page);
  await expect(bubble(page, `Message ${TOTAL}`)).toBeInViewport({ timeout: 30_000 });

  const loadOlderAndMeasure = () =>
    page.evaluate(async () => {
      const gate = window as unknown as { __releaseOlderPage?: () => void };
      const scroller = document.querySelector('section[aria-label="Messages"]') as HTMLElement;
      const firstId = () =>
        Number(scroller.querySelector('[data-message-id]')?.getAttribute('data-message-id'));
      const frames = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      // Waits for what is needed; the ceiling only keeps something that never happens from hanging the test.
      const until = async (done: () => boolean) => {
        const deadline = Date.now() + 30_000;
        while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        return done();
      };
      // Scroll to the top; once the view has asked for the older page and drawn its rows, note the oldest message
      // loaded and the one at the top edge, then let the page arrive.
      scroller.scrollTop = 0;
      const asked = await until(() => gate.__releaseOlderPage !== undefined);
      await frames();
      const oldest = firstId();
      const top = scroller.getBoundingClientRect().top;
      const anchor = [...scroller.querySelectorAll<HTMLElement>('[data-message-id]')].find(
        (el) => el.getBoundingClientRect().bottom > top + 40,
      )!;
      const anchorId = anchor.dataset.messageId;
      const before = anchor.getBoundingClientRect().top;
      const release = gate.__releaseOlderPage;
      gate.__releaseOlderPage = undefined;
      release?.();
      const loaded = asked && (await until(() => firstId() < oldest));
      await frames();
      const same = scroller.querySelector<HTMLElement>(`[data-message-id="${anchorId}"]`);
      return {
        loaded,
        shift: same ? Math.abs(same.getBoundingClientRect().top - before) : Number.POSITIVE_INFINITY,
        mounted: scroller.querySelectorAll('[data-index]').length,
      };
    });

  let maxShift = 0;
  let maxMounted = 0;
  for (let round = 0; round < 10; round++) {
    // As a person would: the view settles between one look at the top and the next.
    await page.waitForTimeout(300);
    const { loaded, shift, mounted } = await loadOlderAndMeasure();
    expect(loaded, `an older page drawn in round ${round}`).toBe(true);
    maxShift = Math.max(maxShift, shift);
    maxMounted = Math.max(maxMounted, mounted);
  }
  // Rows above are drawn at estimated heights first; a few pixels of settling is all that may show.
  expect(maxShift).toBeLessThanOrEqual(8);
  expect(maxMounted).toBeLessThanOrEqual(120);

  // All the way back to the first message (pages now arrive at once), then down to the newest again: still only
  // a window of rows.
  await page.evaluate(() => {
    const gate = window as unknown as { __olderPagesFree?: boolean; __releaseOlderPage?: () => void };
    gate.__olderPagesFree = true;
    gate.__releaseOlderPage?.();
  });
  // However long the ~200 pages take on a busy machine: it only gives up when no older page has come for a while.
  const reachedFirst = await list.evaluate(async (el) => {
    const firstId = () => Number(el.querySelector('[data-message-id]')?.getAttribute('data-message-id'));
    let oldest = firstId();
    let progressAt = Date.now();
    while (!el.querySelector('[data-message-id="1"]') && Date.now() - progressAt < 20_000) {
      el.scrollTop = 0;
      await new Promise((resolve) => setTimeout(resolve, 25));
      if (firstId() < oldest) {
        oldest = firstId();
        progressAt = Date.now();
      }
    }
    return el.querySelector('[data-message-id="1"]') !== null;
  });
  expect(reachedFirst).toBe(true);
  expect(await list.locator('[data-index]').count()).toBeLessThanOrEqual(120);
  await list.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
  });
  await expect(bubble(page, `Message ${TOTAL}`)).toBeVisible();
  expect(await list.locator('[data-index]').count()).toBeLessThanOrEqual(120);
});

test('the server killed and restarted mid-conversation: nothing confirmed is lost, nothing is doubled', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(180_000);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'parley-e2e-restart-'));
  let server = startServer(port, dataDir);
  const request = await playwright.request.newContext({ baseURL });
  try {
    await untilHealthy(request);
    const ada = await person(browser, request, 'ada', baseURL);
    const grace = await person(browser, request, 'grace', baseURL);
    const chatId = await startChatFromProfile(ada, grace);
    await grace.page.goto(`/chats/${chatId}`);
    await expect(ada.page.getByRole('img', { name: 'In this chat' })).toBeVisible();

    // Confirmed by the server (no longer pending) right before the crash.
    await send(ada.page, 'right before the crash');
    await expect(
      bubble(ada.page, 'right before the crash').getByRole('img', { name: /^(Sent|Delivered|Read)$/ }),
    ).toBeVisible();
    server.kill('SIGKILL');
    await expect(ada.page.getByRole('status').filter({ hasText: /Reconnecting|Disconnected/ })).toBeVisible();

    // Ada comes back later than Grace: her tickets wait until Grace has written twice.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await ada.page.route('**/api/ws/ticket/', async (route) => {
      await gate;
      await route.continue();
    });
    server = startServer(port, dataDir);
    await untilHealthy(request);
    await expect(grace.page.getByRole('status').filter({ hasText: /Reconnecting|Disconnected/ })).toHaveCount(
      0,
      {
        timeout: 20_000,
      },
    );
    await send(grace.page, 'after the restart 1');
    await send(grace.page, 'after the restart 2');
    release();
    await expect(ada.page.getByRole('img', { name: 'In this chat' })).toBeVisible({ timeout: 20_000 });

    for (const text of ['right before the crash', 'after the restart 1', 'after the restart 2']) {
      await expect(bubble(ada.page, text)).toHaveCount(1);
      await expect(bubble(grace.page, text)).toHaveCount(1);
    }
    await send(ada.page, 'all good');
    await expect(bubble(grace.page, 'all good')).toHaveCount(1);
    await expect(bubble(ada.page, 'after the restart 2')).toHaveCount(1);
  } finally {
    server.kill('SIGKILL');
    await request.dispose();
  }
});
