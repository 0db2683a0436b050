import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pngOf } from '@parley/fixtures';
import { expect, type Page, test } from '@playwright/test';
import { expectAxeCleanAtBothWidths } from './support/axe';
import { peoplePerTest, privateChat } from './support/people';
import { openRoom, send, timeline } from './support/room';

// Link previews between two people: a page served on this machine (the server runs with
// PREVIEW_ALLOW_PRIVATE_HOSTS) shows as a card under the message on both sides, its picture served by Parley; the
// sender takes it off with its ×, and it goes from the other side too. axe checks the card in light and dark, at
// 1280 and 390 px.

const person = peoplePerTest();
let site: Server;
let origin: string;

test.beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url?.startsWith('/harbour')) {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(`<!doctype html><html><head><title>Fallback</title>
        <meta property="og:title" content="Harbour timetable for the summer">
        <meta property="og:description" content="Ferries leave every hour from the north pier, first at seven.">
        <meta property="og:site_name" content="Harbour News">
        <meta property="og:image" content="/cover.png"></head><body></body></html>`);
    } else if (req.url === '/cover.png') {
      res.setHeader('content-type', 'image/png');
      res.end(pngOf(1200, 630, '#2a7ab0'));
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(() => new Promise<void>((resolve) => site.close(() => resolve())));

const card = (page: Page) => timeline(page).getByTestId('link-preview');

test('a pasted link shows its page on both sides, and its sender takes the card off', async ({
  browser,
  request,
}, info) => {
  test.slow();
  const ada = await person(browser, request, 'ada');
  const ben = await person(browser, request, 'ben');
  const chatId = await privateChat(request, ada, ben);
  await Promise.all([openRoom(ada.page, `/chats/${chatId}`), openRoom(ben.page, `/chats/${chatId}`)]);

  const link = `${origin}/harbour?week=${Date.now().toString(36)}`;
  await send(ada.page, `Times for next week: ${link}`);
  for (const page of [ada.page, ben.page]) {
    await expect(card(page)).toBeVisible({ timeout: 30_000 });
    await expect(card(page).getByRole('link', { name: 'Harbour timetable for the summer' })).toHaveAttribute(
      'href',
      link,
    );
    await expect(card(page)).toContainText('Harbour News');
    await expect(card(page)).toContainText('Ferries leave every hour');
    // The picture came from Parley, thumbnailed, and has loaded.
    const picture = card(page).locator('img');
    await expect(picture).toHaveAttribute('src', /^\/api\/link-previews\/[0-9a-f]{32}\.webp$/);
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(480);
  }
  // Only the sender may take it off.
  await expect(card(ben.page).getByRole('button', { name: 'Remove preview' })).toHaveCount(0);

  await expectAxeCleanAtBothWidths([ada.page, ben.page], card, (width, which) =>
    info.outputPath(`preview-${width}-${which === 'first' ? 'sender' : 'reader-dark'}.png`),
  );

  await card(ada.page).getByRole('button', { name: 'Remove preview' }).click();
  await expect(card(ada.page)).toHaveCount(0);
  await expect(card(ben.page)).toHaveCount(0);
  // It stays off after a reload: the message keeps no preview.
  await ben.page.reload();
  await expect(timeline(ben.page).getByText(`Times for next week: ${link}`)).toBeVisible({ timeout: 60_000 });
  await expect(card(ben.page)).toHaveCount(0);
});
