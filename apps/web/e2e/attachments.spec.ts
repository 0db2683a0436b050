import { pdfOf, pngOf } from '@parley/fixtures';
import {
  type APIRequestContext,
  type Browser,
  expect,
  type Locator,
  type Page,
  test,
} from '@playwright/test';
import { peoplePerTest, privateChat } from './support/people';
import { openMessageMenu } from './support/room';

// Attachments: files go up with progress, arrive as a message, and open in the full-screen preview; refused files
// (type, size, bytes that are not what the name says) are toasts and nothing is sent.

const person = peoplePerTest();

const messages = (page: Page) => page.getByRole('region', { name: 'Messages' });
const sentMessages = (page: Page) => messages(page).locator('[data-message-id]');
const fileInput = (page: Page) => page.locator('form input[type="file"]');
/** Chosen files wait in the composer until sent. */
const send = (page: Page) => page.getByRole('button', { name: 'Send message' }).click();
const toast = (page: Page, text: string | RegExp) => page.locator('.Toastify').getByText(text).first();
const loaded = (image: Locator) =>
  image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0);

/** Ada and Grace, both in their private chat; the files Ada's page uploads are counted in `uploads`. */
async function twoInOneChat(browser: Browser, request: APIRequestContext) {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');
  const chatId = await privateChat(request, ada, grace);
  await ada.page.goto(`/chats/${chatId}`);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(grace.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  return { ada, grace, uploads: uploadsOf(ada.page) };
}

function uploadsOf(page: Page): string[] {
  const uploads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().includes('/attachments/')) uploads.push(r.url());
  });
  return uploads;
}

test('an image goes up with its progress shown, arrives live and opens in the full-screen preview', async ({
  browser,
  request,
}) => {
  const ada = await person(browser, request, 'ada');
  const grace = await person(browser, request, 'grace');

  await ada.page.goto(`/user/${grace.account.username}`);
  await ada.page.getByRole('button', { name: 'Message' }).click();
  await expect(ada.page).toHaveURL(/\/chats\/[^/]+$/);
  const chatId = decodeURIComponent(new URL(ada.page.url()).pathname.split('/')[2]!);
  await grace.page.goto(`/chats/${chatId}`);
  await expect(grace.page.getByRole('img', { name: 'In this chat' })).toBeVisible();
  await expect(fileInput(ada.page)).toHaveAttribute('accept', 'image/*,video/*,audio/*,.pdf,.doc,.docx,.txt');

  const uploads = uploadsOf(ada.page);

  // The image: while the server holds the upload, the pending message shows its progress.
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await ada.page.route(
    '**/attachments/',
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  await fileInput(ada.page).setInputFiles({
    name: 'cat.png',
    mimeType: 'image/png',
    buffer: pngOf(400, 300, [40, 120, 200]),
  });
  await send(ada.page);
  await expect(ada.page.getByRole('progressbar', { name: 'Upload progress' })).toBeVisible();
  await expect(ada.page.getByText('cat.png')).toBeVisible();
  release();
  await expect(ada.page.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0);
  await expect(sentMessages(ada.page).getByRole('button', { name: 'Open image cat.png' })).toBeVisible();

  // Grace gets it live, with a thumbnail, and opens the full-screen preview.
  const image = sentMessages(grace.page).getByRole('button', { name: 'Open image cat.png' });
  await expect(image).toBeVisible();
  await expect.poll(() => loaded(image.getByRole('img'))).toBe(true);
  await image.click();
  const preview = grace.page.getByRole('dialog', { name: 'cat.png' });
  await expect(preview).toBeVisible();
  const full = preview.getByRole('img', { name: 'cat.png' });
  await expect(full).toBeVisible();
  await expect.poll(() => loaded(full)).toBe(true);
  await expect(preview.getByRole('link', { name: 'Download cat.png' })).toBeVisible();
  await grace.page.keyboard.press('Escape');
  await expect(preview).toBeHidden();
  await expect(sentMessages(grace.page)).toHaveCount(1);
  await expect(sentMessages(ada.page)).toHaveCount(1);
  expect(uploads).toHaveLength(1);
});

test('a caption typed with a file goes with it as one message, answering the message replied to', async ({
  browser,
  request,
}) => {
  const { ada, grace, uploads } = await twoInOneChat(browser, request);
  await grace.page.getByRole('textbox', { name: 'Message' }).fill('Send me the plan?');
  await send(grace.page);
  const question = sentMessages(ada.page).filter({ hasText: 'Send me the plan?' });
  await expect(question).toBeVisible();

  // Ada replies with a file and a caption, sent together with Enter.
  await question.hover();
  await openMessageMenu(question);
  await ada.page.getByRole('menu').getByRole('menuitem', { name: 'Reply', exact: true }).click();
  await fileInput(ada.page).setInputFiles({
    name: 'plan.pdf',
    mimeType: 'application/pdf',
    buffer: pdfOf('The plan'),
  });
  const box = ada.page.getByRole('textbox', { name: 'Message' });
  await box.fill('Here it is');
  await box.press('Enter');

  for (const page of [ada.page, grace.page]) {
    const captioned = sentMessages(page).filter({ hasText: 'Here it is' });
    await expect(captioned.getByRole('button', { name: 'Open plan.pdf' })).toBeVisible();
    await expect(captioned).toContainText('Send me the plan?');
    await expect(sentMessages(page)).toHaveCount(2);
  }
  await expect(box).toHaveValue('');
  expect(uploads).toHaveLength(1);
});

test('a PDF opens in a frame and a text file in a framed box', async ({ browser, request }) => {
  const { ada, grace, uploads } = await twoInOneChat(browser, request);

  // The PDF opens in a frame.
  await fileInput(ada.page).setInputFiles({
    name: 'notes.pdf',
    mimeType: 'application/pdf',
    buffer: pdfOf('Meeting notes'),
  });
  await send(ada.page);
  const pdf = sentMessages(grace.page).getByRole('button', { name: 'Open notes.pdf' });
  await expect(pdf).toBeVisible();
  await expect(pdf).toContainText('PDF');
  await pdf.click();
  const pdfPreview = grace.page.getByRole('dialog', { name: 'notes.pdf' });
  const frame = pdfPreview.locator('iframe[title="PDF: notes.pdf"]');
  await expect(frame).toBeVisible();
  const src = await frame.getAttribute('src');
  expect(src).toMatch(/^\/api\/files\//);
  const served = await request.get(src!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toBe('application/pdf');
  await pdfPreview.getByRole('button', { name: 'Close preview' }).click();
  await expect(pdfPreview).toBeHidden();

  // A text file is shown in a framed box.
  await fileInput(ada.page).setInputFiles({
    name: 'hello.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Hello from a text file\nSecond line'),
  });
  await send(ada.page);
  await sentMessages(grace.page).getByRole('button', { name: 'Open hello.txt' }).click();
  const textPreview = grace.page.getByRole('dialog', { name: 'hello.txt' });
  await expect(textPreview.getByRole('region', { name: 'Text of hello.txt' })).toContainText(
    'Hello from a text file',
  );
  await textPreview.getByRole('button', { name: 'Close preview' }).click();
  await expect(sentMessages(grace.page)).toHaveCount(2);
  await expect(sentMessages(ada.page)).toHaveCount(2);
  expect(uploads).toHaveLength(2);
});

test('refused files send nothing: a type outside the list, a file over 25 MB, bytes that are not text', async ({
  browser,
  request,
}) => {
  const { ada, grace, uploads } = await twoInOneChat(browser, request);

  // Refused on the screen: a type outside the list, and a file over 25 MB. Nothing is uploaded or sent.
  await fileInput(ada.page).setInputFiles({
    name: 'tool.exe',
    mimeType: 'application/x-msdownload',
    buffer: Buffer.from('MZ binary'),
  });
  await expect(toast(ada.page, /“tool\.exe” can’t be attached/)).toBeVisible();
  await fileInput(ada.page).setInputFiles({
    name: 'huge.mp4',
    mimeType: 'video/mp4',
    buffer: Buffer.alloc(25 * 1024 * 1024 + 1),
  });
  await expect(toast(ada.page, /“huge\.mp4” is too large/)).toBeVisible();
  expect(uploads).toHaveLength(0);

  // Refused by the server: a ".txt" whose bytes are not text. The toast gives its reason; nothing is sent.
  await fileInput(ada.page).setInputFiles({
    name: 'fake.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]),
  });
  await send(ada.page);
  await expect(toast(ada.page, /This file type is not supported/)).toBeVisible();
  expect(uploads).toHaveLength(1);
  await expect(ada.page.getByRole('progressbar', { name: 'Upload progress' })).toHaveCount(0);
  await expect(sentMessages(ada.page)).toHaveCount(0);
  await expect(sentMessages(grace.page)).toHaveCount(0);
});
