import { pdfOf, pngOf } from '@parley/fixtures';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { seriousFindings } from './support/axe';
import { type Person, peoplePerTest, privateChat } from './support/people';
import { openMessageMenu } from './support/room';

// The composer: several lines, files pasted and dropped (waiting with thumbnails until sent), emoji (the
// picker and :shortcodes), light formatting drawn safely for the other person, the length limit, and long
// words that stay inside their bubble. Two people in two browsers over the production build.

const person = peoplePerTest();

const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const list = (page: Page) => page.getByRole('region', { name: 'Messages' });
const rows = (page: Page) => list(page).locator('[data-message-id]');
const body = (row: Locator) => row.getByTestId('message-body');
const staged = (page: Page) => page.getByRole('list', { name: 'Files to send' });
/** Screenshots to look at, in the test's output folder. */
const shot = (name: string) => ({ path: test.info().outputPath(name) });

async function openRoom(page: Page, chatId: string) {
  await page.goto(`/chats/${chatId}`);
  await expect(composer(page)).toBeVisible();
  await expect(page.locator('[data-status]:not([data-status="connected"])')).toHaveCount(0);
}

async function twoInOneRoom(
  browser: Browser,
  request: APIRequestContext,
  viewport?: { width: number; height: number },
): Promise<{ ada: Person; grace: Person; chatId: string }> {
  const ada = await person(browser, request, 'ada', viewport ? { viewport } : {});
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await openRoom(ada.page, chatId);
  await openRoom(grace.page, chatId);
  return { ada, grace, chatId };
}

/** Drops files onto an element as a person dragging them from their desktop does. */
async function dropFiles(target: Locator, files: { name: string; type: string; bytes: Buffer }[]) {
  const data = await target.page().evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const f of list) {
        const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
        transfer.items.add(new File([bytes], f.name, { type: f.type }));
      }
      return transfer;
    },
    files.map((f) => ({ name: f.name, type: f.type, base64: f.bytes.toString('base64') })),
  );
  await target.dispatchEvent('dragenter', { dataTransfer: data });
  await target.dispatchEvent('dragover', { dataTransfer: data });
  await expect(target.page().getByTestId('drop-overlay')).toBeVisible();
  await target.dispatchEvent('drop', { dataTransfer: data });
  await expect(target.page().getByTestId('drop-overlay')).toHaveCount(0);
}

test('Shift+Enter breaks the line, Enter sends; the box grows to about eight lines, then scrolls', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  const box = composer(ada.page);
  const oneLine = (await box.boundingBox())!.height;
  await box.pressSequentially('First line');
  await box.press('Shift+Enter');
  await box.pressSequentially('second line');
  await expect(box).toHaveValue('First line\nsecond line');
  expect((await box.boundingBox())!.height).toBeGreaterThan(oneLine);
  await box.press('Enter');
  await expect(box).toHaveValue('');

  const received = rows(grace.page).last();
  await expect(body(received)).toHaveText('First line\nsecond line', { useInnerText: true });
  // Drawn on two lines.
  const lineHeight = await body(received).evaluate((el) =>
    Number.parseFloat(getComputedStyle(el).lineHeight),
  );
  expect((await body(received).boundingBox())!.height).toBeGreaterThanOrEqual(lineHeight * 2 - 1);

  // Twenty lines: the box stops growing near eight lines and scrolls.
  await box.fill(Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'));
  const tall = await box.evaluate((el) => ({
    height: el.getBoundingClientRect().height,
    scrolls: el.scrollHeight > el.clientHeight,
    lineHeight: Number.parseFloat(getComputedStyle(el).lineHeight),
  }));
  expect(tall.scrolls).toBe(true);
  expect(tall.height).toBeGreaterThan(tall.lineHeight * 7);
  expect(tall.height).toBeLessThan(tall.lineHeight * 10);
});

test('a pasted image and dropped files wait with thumbnails, one is removed, and they are sent with the text', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  await ada.context.grantPermissions(['clipboard-read', 'clipboard-write']);

  // An image copied to the clipboard, pasted into the composer.
  await ada.page.evaluate(
    async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      await navigator.clipboard.write([
        new ClipboardItem({ 'image/png': new Blob([bytes], { type: 'image/png' }) }),
      ]);
    },
    pngOf(320, 200, [200, 80, 40]).toString('base64'),
  );
  await composer(ada.page).click();
  await ada.page.keyboard.press('ControlOrMeta+V');
  await expect(staged(ada.page).getByRole('listitem')).toHaveCount(1);
  const thumbnail = staged(ada.page).getByRole('img');
  await expect(thumbnail).toBeVisible();
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(320);
  const pastedName = (await thumbnail.getAttribute('alt'))!;

  // A PDF and a text file dropped onto the room's messages.
  await dropFiles(list(ada.page), [
    { name: 'minutes.pdf', type: 'application/pdf', bytes: pdfOf('Minutes') },
    { name: 'scratch.txt', type: 'text/plain', bytes: Buffer.from('not this one') },
  ]);
  await expect(staged(ada.page).getByRole('listitem')).toHaveCount(3);
  await expect(staged(ada.page)).toContainText('minutes.pdf');
  await ada.page.screenshot(shot(`staged-1280.png`));

  // A refused file is refused as the attach button refuses it; the others stay.
  await dropFiles(list(ada.page), [
    { name: 'tool.exe', type: 'application/x-msdownload', bytes: Buffer.from('MZ') },
  ]);
  await expect(ada.page.locator('.Toastify').getByText(/“tool\.exe” can’t be attached/)).toBeVisible();
  await expect(staged(ada.page).getByRole('listitem')).toHaveCount(3);

  await staged(ada.page).getByRole('button', { name: 'Remove scratch.txt' }).click();
  await expect(staged(ada.page).getByRole('listitem')).toHaveCount(2);
  await expect(staged(ada.page)).not.toContainText('scratch.txt');

  await composer(ada.page).fill('The photo and the minutes');
  await composer(ada.page).press('Enter');
  await expect(staged(ada.page)).toHaveCount(0);

  // Grace gets one message: the text as the caption of the image and the PDF (and never the removed file).
  const files = rows(grace.page).filter({ hasText: 'The photo and the minutes' });
  await expect(files).toHaveCount(1);
  await expect(files.getByRole('button', { name: `Open image ${pastedName}` })).toBeVisible();
  await expect(files.getByRole('button', { name: 'Open minutes.pdf' })).toBeVisible();
  await expect(list(grace.page)).not.toContainText('scratch.txt');
  await expect(rows(grace.page)).toHaveCount(1);
});

test('formatting and links reach the other person drawn, and HTML in a body stays text', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  const send = async (text: string) => {
    await composer(ada.page).fill(text);
    await composer(ada.page).press('Enter');
    await expect(composer(ada.page)).toHaveValue('');
  };
  await send('*Bold* and _italic_, ~gone~, `npm test`, see https://example.com/docs?a=1 or www.example.org');
  const row = rows(grace.page).last();
  await expect(row.locator('strong', { hasText: 'Bold' })).toBeVisible();
  await expect(row.locator('em', { hasText: 'italic' })).toBeVisible();
  await expect(row.locator('s', { hasText: 'gone' })).toBeVisible();
  await expect(row.locator('code', { hasText: 'npm test' })).toBeVisible();
  const link = row.getByRole('link', { name: 'https://example.com/docs?a=1' });
  await expect(link).toHaveAttribute('href', 'https://example.com/docs?a=1');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(row.getByRole('link', { name: 'www.example.org' })).toHaveAttribute(
    'href',
    'http://www.example.org/',
  );

  await send('```\nconst answer = 42;\n  indented()\n```');
  await expect(rows(grace.page).last().locator('code[data-block]')).toHaveText(
    'const answer = 42;\n  indented()',
    {
      useInnerText: true,
    },
  );

  // The usual payloads are text.
  const payloads = [
    '<img src=x onerror="window.__xss=1">',
    '[click](javascript:window.__xss=2)',
    'javascript:window.__xss=3',
    '<a href="data:text/html,<script>window.__xss=4</script>">x</a>',
  ];
  for (const payload of payloads) await send(payload);
  for (const payload of payloads) await expect(rows(grace.page).filter({ hasText: payload })).toHaveCount(1);
  const last = rows(grace.page).filter({ hasText: payloads[0]! });
  await expect(last.locator('img')).toHaveCount(0);
  for (const payload of payloads.slice(1))
    await expect(body(rows(grace.page).filter({ hasText: payload })).getByRole('link')).toHaveCount(0);
  expect(await grace.page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
  await grace.page.screenshot(shot(`formatted-1280.png`));
});

test('a pasted 5,000 characters are kept, counted and refused with a clear message', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  const long = `${'lorem ipsum '.repeat(416)}dolor sit a`.slice(0, 5000);
  expect(long).toHaveLength(5000);
  await composer(ada.page).click();
  await ada.page.keyboard.insertText(long);
  // Nothing is cut.
  await expect(composer(ada.page)).toHaveValue(long);
  await expect(ada.page.getByTestId('message-count')).toContainText('5000 / 4096');
  await composer(ada.page).press('Enter');
  await expect(ada.page.getByRole('alert')).toHaveText(
    'Message must be at most 4096 characters. Shorten it by 904 characters to send it.',
  );
  await ada.page.getByRole('button', { name: 'Send message' }).click();
  await expect(composer(ada.page)).toHaveValue(long);
  await ada.page.screenshot(shot(`too-long-1280.png`));

  // Cut to the limit, it goes, and the message leaves with the excess.
  await composer(ada.page).fill(long.slice(0, 4096));
  await expect(ada.page.getByRole('alert')).toHaveCount(0);
  await expect(ada.page.getByTestId('message-count')).toContainText('4096 / 4096');
  await composer(ada.page).press('Enter');
  await expect(composer(ada.page)).toHaveValue('');
  await expect(ada.page.getByTestId('message-count')).toHaveCount(0);
  await expect(rows(grace.page)).toHaveCount(1);
  expect((await body(rows(grace.page).last()).innerText()).length).toBe(4096);
});

for (const width of [1280, 390]) {
  test(`a long unbroken word or address stays inside its bubble at ${width} px`, async ({
    browser,
    request,
  }) => {
    const { ada, grace } = await twoInOneRoom(browser, request, { width, height: 844 });
    const word = `Supercalifragilistic${'x'.repeat(400)}`;
    const url = `https://example.com/${'a'.repeat(300)}`;
    for (const text of [word, url]) {
      await composer(ada.page).fill(text);
      await composer(ada.page).press('Enter');
    }
    await expect(rows(ada.page)).toHaveCount(2);
    await expect(rows(grace.page)).toHaveCount(2);
    for (const page of [ada.page, grace.page]) {
      const region = (await list(page).boundingBox())!;
      for (const row of await rows(page).all()) {
        const bubble = (await body(row).boundingBox())!;
        expect(bubble.x).toBeGreaterThanOrEqual(region.x);
        expect(bubble.x + bubble.width).toBeLessThanOrEqual(region.x + region.width + 0.5);
      }
      // Nothing scrolls sideways.
      const sideways = await list(page).evaluate((el) => el.scrollWidth - el.clientWidth);
      expect(sideways).toBeLessThanOrEqual(0);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
      ).toBeLessThanOrEqual(0);
    }
    await ada.page.screenshot(shot(`long-word-${width}.png`));
  });
}

test('emoji: :shortcode completion with the keyboard, the picker in the composer and for reactions', async ({
  browser,
  request,
}) => {
  const { ada, grace } = await twoInOneRoom(browser, request);
  const box = composer(ada.page);
  await box.pressSequentially('Hello :smi');
  const options = ada.page.getByRole('listbox', { name: 'Emoji' });
  await expect(options.getByRole('option').first()).toHaveText(/😄\s*:smile:/);
  await expect(box).toHaveAttribute('aria-activedescendant', /.+/);
  await box.press('ArrowDown');
  await box.press('ArrowUp');
  await box.press('Enter');
  await expect(options).toHaveCount(0);
  await expect(box).toHaveValue('Hello 😄');
  // Escape closes the list; a shortcode typed out in full becomes its emoji.
  await box.pressSequentially(' :tad');
  await expect(options.getByRole('option').first()).toContainText(':tada:');
  await box.press('Escape');
  await expect(options).toHaveCount(0);
  await box.pressSequentially('a:');
  await expect(box).toHaveValue('Hello 😄 🎉');

  // The picker, loaded when opened: search, pick, and it goes in at the caret.
  await ada.page.getByRole('button', { name: 'Insert emoji' }).click();
  const picker = ada.page.getByRole('dialog', { name: 'Insert emoji' });
  await expect(picker).toBeVisible();
  const search = picker.getByRole('combobox');
  await expect(search).toBeFocused();
  await search.fill('avocado');
  await picker.getByRole('option', { name: /🥑/ }).first().click();
  await expect(box).toHaveValue('Hello 😄 🎉🥑');
  await ada.page.screenshot(shot('picker-1280.png'));
  await ada.page.keyboard.press('Escape');
  await expect(picker).toHaveCount(0);
  await expect(box).toBeFocused();
  await box.press('Enter');
  await expect(rows(grace.page).last()).toContainText('Hello 😄 🎉🥑');

  // Grace reacts with an emoji that is not in the quick row, from the same picker.
  const row = rows(grace.page).last();
  await row.hover();
  await openMessageMenu(row);
  await grace.page.getByRole('menuitem', { name: 'React' }).click();
  await grace.page.getByRole('menuitem', { name: 'More emoji' }).click();
  const reactions = grace.page.getByRole('dialog', { name: 'Pick a reaction' });
  await reactions.getByRole('combobox').fill('pineapple');
  await reactions.getByRole('option', { name: /🍍/ }).first().click();
  await expect(reactions).toHaveCount(0);
  await expect(rows(ada.page).last().getByTestId('reaction')).toContainText('🍍');
});

for (const theme of ['light', 'dark'] as const) {
  test(`the composer with staged files, the count, suggestions and the picker at 390 px, ${theme}: axe-clean`, async ({
    browser,
    request,
  }) => {
    const { ada } = await twoInOneRoom(browser, request, { width: 390, height: 844 });
    await ada.page.emulateMedia({ colorScheme: theme });
    await ada.page.locator('form input[type="file"]').setInputFiles([
      { name: 'sunset.png', mimeType: 'image/png', buffer: pngOf(300, 200, [240, 120, 40]) },
      { name: 'report.pdf', mimeType: 'application/pdf', buffer: pdfOf('Report') },
    ]);
    await expect(staged(ada.page).getByRole('listitem')).toHaveCount(2);
    await composer(ada.page).fill(`${'Line one\nLine two\n'.repeat(240)}:smi`);
    await expect(ada.page.getByTestId('message-count')).toBeVisible();
    await expect(ada.page.getByRole('listbox', { name: 'Emoji' })).toBeVisible();
    const form = (await composer(ada.page).boundingBox())!;
    expect(form.x + form.width).toBeLessThanOrEqual(390);
    await composer(ada.page).press('Escape');
    await composer(ada.page).press('Enter');
    await expect(ada.page.getByRole('alert')).toContainText('Message must be at most 4096 characters');
    // axe in the composer as it is now (a11y.spec checks whole screens).
    expect(await seriousFindings(ada.page, '[data-testid="composer"]')).toEqual([]);
    await ada.page.screenshot(shot(`staged-390-${theme}.png`));

    await ada.page.getByRole('button', { name: 'Insert emoji' }).click();
    const picker = ada.page.getByRole('dialog', { name: 'Insert emoji' });
    await expect(picker.getByRole('combobox')).toBeFocused();
    const box = (await picker.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await ada.page.screenshot(shot(`picker-390-${theme}.png`));
  });
}
