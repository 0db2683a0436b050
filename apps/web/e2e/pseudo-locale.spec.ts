import { writeFile } from 'node:fs/promises';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Page,
  type TestInfo,
  test,
} from '@playwright/test';
import { type Person, peoplePerTest, privateChat } from './support/people';
import { loading } from './support/room';
import { onOwnServer } from './support/server-process';

// Every screen in the pseudo-locale: the catalogs' English with every letter accented ('Ĺōĝ ōũţ'). A word of plain
// ASCII letters on a screen then came from somewhere other than a catalog: a text written inline. What people
// wrote (names, bodies, addresses) is marked translate="no" by the app and the test data's own words are known,
// so neither counts; nor does a <time>, which Intl writes in the reader's locale.

const person = peoplePerTest();

const PSEUDO = () => window.localStorage.setItem('parley.pseudo', '1');

/** The plain-ASCII words of what the page shows (text, and the attributes people and screen readers meet). */
function untranslatedOn(page: Page, known: string[]): Promise<string[]> {
  return page.evaluate((known) => {
    const found = new Set<string>();
    const english = (text: string) => {
      let rest = text;
      // Longest first: a name inside a longer known text must not break that text up.
      for (const k of [...known].sort((a, b) => b.length - a.length)) rest = rest.split(k).join(' ');
      return (rest.match(/\p{L}+/gu) ?? []).filter((w) => w.length >= 2 && /^[A-Za-z]+$/.test(w));
    };
    const exempt = (el: Element) => el.closest('[translate="no"], time, script, style, noscript') !== null;
    const where = (el: Element) => {
      const id = el.closest('[aria-label], [role], h1, h2, h3, button, a, label');
      return `<${el.tagName.toLowerCase()}>${id && id !== el ? ` in <${id.tagName.toLowerCase()}${id.getAttribute('aria-label') ? ` "${id.getAttribute('aria-label')}"` : ''}>` : ''}`;
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || exempt(el) || !el.checkVisibility({ visibilityProperty: true })) continue;
      const text = node.textContent ?? '';
      if (english(text).length > 0) found.add(`"${text.trim().slice(0, 80)}" ${where(el)}`);
    }
    for (const el of document.body.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      if (exempt(el)) continue;
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const value = el.getAttribute(attr);
        if (value && english(value).length > 0) found.add(`${attr}="${value.slice(0, 80)}" on ${where(el)}`);
      }
    }
    if (english(document.title).length > 0) found.add(`the document title "${document.title}"`);
    return [...found];
  }, known);
}

/**
 * Accented text shows once the catalogs are in ('Ĺōĝ' and its kin hold letters outside ASCII); a screen with no
 * catalog text at all never shows any, and is then scanned as it stands.
 */
async function pseudoShown(page: Page) {
  await expect
    .poll(() => page.evaluate(() => /[\u00C0-\u024F]/.test(document.body.textContent ?? '')), {
      timeout: 20_000,
    })
    .toBe(true)
    .catch(() => undefined);
}

async function api(request: APIRequestContext, who: Person, method: string, url: string, data?: unknown) {
  const res = await request.fetch(url, {
    method,
    headers: { Authorization: `Bearer ${who.token}` },
    ...(data === undefined ? {} : { data }),
  });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.status() === 204 ? null : res.json();
}

async function newPseudoPerson(
  browser: Browser,
  request: APIRequestContext,
  prefix: string,
  baseURL: string,
) {
  const p = await person(browser, request, prefix, { baseURL });
  await p.context.addInitScript(PSEUDO);
  return p;
}

test('no screen shows a text that is not from a catalog', async ({ browser, playwright }, info) => {
  // Some thirty screens, each loaded and scanned: generous on a busy machine.
  test.setTimeout(20 * 60_000);
  // A server of its own: the admin console lists every account on the server, and other journeys' people (with
  // names of their own) would count as untranslated words.
  await onOwnServer(playwright, 'pseudo', ({ baseURL, request }) =>
    everyScreen(browser, request, baseURL, info),
  );
});

async function everyScreen(browser: Browser, request: APIRequestContext, baseURL: string, info: TestInfo) {
  // The first verified account on a fresh server is its site admin.
  const ada = await newPseudoPerson(browser, request, 'ada', baseURL);
  const grace = await person(browser, request, 'grace', { baseURL });

  // A private chat and a channel with a reply, a thread, a reaction, a pin and a saved message.
  const direct = await privateChat(request, ada, grace);
  const send = (who: Person, chatId: string, body: string, extra: Record<string, unknown> = {}) =>
    api(request, who, 'POST', `/api/chats/${chatId}/messages/`, {
      body,
      client_id: crypto.randomUUID(),
      ...extra,
    });
  const first = await send(grace, direct, 'Ahoy Ada');
  await send(ada, direct, 'Ahoy Grace', { reply_to: first.id });
  const channel = await api(request, ada, 'POST', '/api/chats/group/new/', {
    group_name: 'Lighthouse',
    visibility: 'public',
    description: 'Beacons and boats',
  });
  const channelId = channel.chat_id as string;
  await api(request, ada, 'POST', `/api/chats/${channelId}/members/`, { members: [grace.account.username] });
  const root = await send(ada, channelId, 'Harbour opens soon');
  await send(grace, channelId, 'Wonderful news', { thread_root: root.id });
  await api(
    request,
    grace,
    'PUT',
    `/api/chats/${channelId}/messages/${root.id}/reactions/${encodeURIComponent('👍')}/`,
  );
  await api(request, ada, 'PUT', `/api/chats/${channelId}/pins/${root.id}/`);
  await api(request, ada, 'PUT', `/api/saved/${root.id}/`);
  const invite = await api(request, ada, 'POST', `/api/chats/${channelId}/invites/`, {});

  // Names no language translates: Parley's, the landing page's brand and the networks its footer links to.
  const brands = ['Parley', 'Gigspace', 'LinkedIn', 'Facebook', 'Instagram', 'Twitter'];
  const known = [
    ...brands,
    // Browser and system names, as the sessions list reads them from a user agent.
    'HeadlessChrome',
    'Chrome',
    'Windows NT',
    'Linux',
    ...[ada, grace].flatMap((p) => [
      p.account.first_name,
      p.account.last_name,
      p.account.username,
      p.account.email,
    ]),
    'Ahoy Ada',
    'Ahoy Grace',
    'Lighthouse',
    'Beacons and boats',
    'Harbour opens soon',
    'Wonderful news',
    invite.code as string,
  ];

  const findings: Record<string, string[]> = {};
  const check = async (page: Page, name: string) => {
    await pseudoShown(page);
    await page.screenshot({ path: info.outputPath(`pseudo-${name}.png`), fullPage: true });
    const words = await untranslatedOn(page, known);
    if (words.length > 0) findings[name] = words;
    // Kept as it grows, so a run cut short still says what it found.
    await writeFile(info.outputPath('findings.json'), JSON.stringify(findings, null, 2));
  };
  const visit = async (page: Page, url: string, name: string, ready: (page: Page) => Promise<void>) => {
    await page.goto(url);
    await ready(page);
    await check(page, name);
  };
  const heading = (page: Page) => expect(page.getByRole('heading').first()).toBeVisible(loading);
  const composer = (page: Page) => expect(page.getByRole('textbox').last()).toBeVisible(loading);

  // Signed out.
  const visitor = await browser.newContext({ baseURL });
  await visitor.addInitScript(PSEUDO);
  const out = await visitor.newPage();
  for (const [url, name] of [
    ['/login', 'sign-in'],
    ['/register', 'sign-up'],
    ['/reset-password', 'reset-password'],
    ['/coming-soon', 'landing'],
    [`/join/${invite.code}`, 'invite-signed-out'],
  ] as const)
    await visit(out, url, name, heading);
  await visitor.close();

  // Signed in: every screen of the app and the admin console.
  const page = ada.page;
  await visit(page, '/', 'home', heading);
  await visit(page, '/chats', 'chat-list', heading);
  await visit(page, `/chats/${direct}`, 'private-room', composer);
  await visit(page, `/groups/${channelId}`, 'channel-room', composer);
  await visit(page, `/groups/${channelId}/thread/${root.id}`, 'thread', composer);
  await visit(page, '/threads', 'threads', heading);
  await visit(page, '/saved', 'saved', heading);
  await visit(page, '/channels', 'channels', heading);
  await visit(page, `/groups/${channelId}/settings`, 'group-settings', heading);
  await visit(page, `/chats/${direct}/settings`, 'chat-settings', heading);
  await visit(page, `/join/${invite.code}`, 'invite', heading);
  await visit(page, '/profile', 'own-profile', heading);
  await visit(page, '/profile/edit', 'edit-profile', heading);
  await visit(page, `/user/${grace.account.username}`, 'public-profile', heading);
  await visit(page, '/settings', 'settings', heading);
  await visit(page, '/no-such-page', 'not-found', heading);
  await visit(page, '/admin', 'admin', heading);
  for (const tab of await page.getByRole('tab').all()) {
    const name = await tab.textContent();
    await tab.click();
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await check(page, `admin-${name?.trim()}`);
  }

  // Menus and dialogs that open over a room.
  await visit(page, `/groups/${channelId}`, 'channel-room-menu', async (p) => {
    await composer(p);
    const row = p.locator('[data-message-id]').filter({ hasText: 'Harbour opens soon' }).first();
    await row.hover();
    await row.locator('button[aria-haspopup="menu"]').click();
    await expect(p.getByRole('menu')).toBeVisible();
  });
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+k');
  await expect(page.getByRole('dialog')).toBeVisible(loading);
  await page
    .getByRole('dialog')
    .getByRole('combobox')
    .or(page.getByRole('dialog').getByRole('searchbox'))
    .first()
    .fill('Harbour');
  await expect(page.getByRole('dialog').getByText('Harbour', { exact: false }).first()).toBeVisible(loading);
  await check(page, 'search');

  expect(findings, 'texts not from a catalog, by screen').toEqual({});
}
