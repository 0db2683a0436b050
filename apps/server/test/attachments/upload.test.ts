import { randomBytes } from 'node:crypto';
import { docxOf, elfOf, pdfOf, pngOf, zipOf } from '@parley/fixtures';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { people, startChat } from '../chats/chat-helpers';
import { groupOf, mediaFiles } from '../groups/group-helpers';
import { type TestApp, useTestApp } from '../helpers/test-app';
import { fetchPath, fileRows, uploadFiles, uploadRaw } from './attachment-helpers';

// POST /api/chats/{chat_id}/attachments/ (DESIGN §1, §7): members only, the type from the
// bytes against SPEC's list (images, video, PDF, .doc, .docx, .txt), at most 25 MB each, images thumbnailed;
// a refused request stores nothing at all.
const app = useTestApp();

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const FILE_URL = /^\/api\/files\/(\d+)\/([^/?]+)\?exp=\d+&sig=[A-Za-z0-9_-]+$/;
const THUMB_URL = /^\/api\/files\/(\d+)\/thumb\?exp=\d+&sig=[A-Za-z0-9_-]+$/;

/** Ada and Grace in a private chat. */
async function pair(t: TestApp) {
  const [ada, grace] = await people(t, 'Ada', 'Grace');
  const chatId = await startChat(t, ada.token, grace.user.username);
  return { ada, grace, chatId };
}

/** Nothing stored: no row for the chat and no file under DATA_DIR/media/files. */
async function expectNothingStored(t: TestApp, chatId: string) {
  expect(await fileRows(t, chatId)).toEqual([]);
  expect(await mediaFiles(t, 'files')).toEqual([]);
}

describe('accepted uploads', () => {
  it('stores a PNG with a WebP thumbnail and answers {files:[{id,type,file,name,size,thumbnail}]}', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const png = pngOf(1200, 600);
    const res = await uploadFiles(t, ada.token, chatId, [
      { bytes: png, filename: 'holiday.png', type: 'image/png' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.files).toHaveLength(1);
    const [file] = res.body.files;
    expect(Object.keys(file).sort()).toEqual(['file', 'id', 'name', 'size', 'thumbnail', 'type']);
    expect(file).toMatchObject({ type: 'image', name: 'holiday.png', size: png.length });
    expect(file.file).toMatch(FILE_URL);
    expect(FILE_URL.exec(file.file)?.[1]).toBe(String(file.id));
    expect(FILE_URL.exec(file.file)?.[2]).toBe('holiday.png');
    expect(file.thumbnail).toMatch(THUMB_URL);

    const [row] = await fileRows(t, chatId);
    expect(row).toMatchObject({ id: file.id, uploader_id: ada.user.id, message_id: null, mime: 'image/png' });
    // Stored under random names, not the client's.
    const stored = await mediaFiles(t, 'files');
    expect(stored).toHaveLength(2);
    expect(stored.some((n) => n.includes('holiday'))).toBe(false);

    const served = await fetchPath(t, file.file);
    expect(served.status).toBe(200);
    expect(served.bytes.equals(png)).toBe(true);
    const thumb = await fetchPath(t, file.thumbnail);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(thumb.bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBeLessThanOrEqual(320);
    expect(meta.width).toBe(320);
  });

  it('takes a PDF, a .txt, a .docx and a JPEG in one request, typed from their bytes', async () => {
    const t = app();
    const { grace, chatId } = await pair(t);
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff9900' } })
      .jpeg()
      .toBuffer();
    const res = await uploadFiles(t, grace.token, chatId, [
      { bytes: pdfOf(), filename: 'plan.pdf', type: 'application/pdf' },
      { bytes: Buffer.from('Grüße, plain text\nline two\n'), filename: 'notes.txt', type: 'text/plain' },
      { bytes: docxOf(), filename: 'letter.docx' },
      { bytes: jpeg, filename: 'photo.jpeg', type: 'image/jpeg' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.files.map((f: { type: string; name: string }) => [f.type, f.name])).toEqual([
      ['pdf', 'plan.pdf'],
      ['text', 'notes.txt'],
      ['other', 'letter.docx'],
      ['image', 'photo.jpeg'],
    ]);
    expect(res.body.files.map((f: { thumbnail: string | null }) => f.thumbnail === null)).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect((await fileRows(t, chatId)).map((r) => r.mime)).toEqual([
      'application/pdf',
      'text/plain',
      DOCX_MIME,
      'image/jpeg',
    ]);
  });

  it('goes by the bytes, not the name: PNG bytes named .pdf are an image', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const res = await uploadFiles(t, ada.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'report.pdf', type: 'application/pdf' },
    ]);
    expect(res.status, res.text).toBe(200);
    expect(res.body.files[0]).toMatchObject({ type: 'image', thumbnail: expect.any(String) });
    const served = await fetchPath(t, res.body.files[0].file);
    expect(served.headers.get('content-type')).toBe('image/png');
    // A PDF named .png is a PDF.
    const pdf = await uploadFiles(t, ada.token, chatId, [
      { bytes: pdfOf(), filename: 'x.png', type: 'image/png' },
    ]);
    expect(pdf.body.files[0]).toMatchObject({ type: 'pdf', thumbnail: null });
  });

  it('keeps only a safe display name (no path, no control characters)', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const unix = await uploadRaw(t, ada.token, chatId, '../../etc/pass\twd\x01.pdf', pdfOf());
    expect(unix.status, JSON.stringify(unix.body)).toBe(200);
    expect(unix.body.files[0].name).toBe('passwd.pdf');
    expect(unix.body.files[0].file).toContain('/passwd.pdf?');
    const windows = await uploadRaw(t, ada.token, chatId, 'C:\\Users\\ada\\report.pdf', pdfOf());
    expect(windows.body.files[0].name).toBe('report.pdf');
    // A name of nothing but unsafe characters gets a plain one.
    const blank = await uploadRaw(t, ada.token, chatId, '\x01\x02', pdfOf());
    expect(blank.body.files[0].name).toBe('file.pdf');
  });
});

describe('refused uploads', () => {
  const refusedAsType: [string, () => Buffer | Promise<Buffer>, string][] = [
    ['an HTML page named .png', () => Buffer.from('<!doctype html><script>alert(1)</script>'), 'cat.png'],
    [
      'an SVG named .png',
      () =>
        Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>'),
      'cat.png',
    ],
    ['an SVG named .svg', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), 'cat.svg'],
    ['a shell script named .png', () => Buffer.from('#!/bin/sh\necho owned\n'), 'run.png'],
    ['a script named .js', () => Buffer.from('alert(document.cookie)'), 'x.js'],
    ['a .txt with a NUL byte', () => Buffer.from('text\u0000with a nul'), 'notes.txt'],
    ['a .txt that is not UTF-8', () => Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x80]), 'latin.txt'],
    ['an ELF executable', elfOf, 'tool'],
    ['an ELF executable named .txt', elfOf, 'readme.txt'],
    ['an ELF executable named .png', elfOf, 'pic.png'],
    ['a plain zip named .docx', () => zipOf([{ name: 'a.txt', data: 'hi' }]), 'letter.docx'],
  ];

  for (const [what, bytes, filename] of refusedAsType) {
    it(`refuses ${what} with 415 and stores nothing`, async () => {
      const t = app();
      const { ada, chatId } = await pair(t);
      const res = await uploadFiles(t, ada.token, chatId, [
        { bytes: await bytes(), filename, type: 'image/png' },
      ]);
      expect(res.status, res.text).toBe(415);
      expect(res.body).toEqual({ detail: expect.stringContaining('not supported') });
      await expectNothingStored(t, chatId);
    });
  }

  it('refuses the whole request when one file of several is refused', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    const res = await uploadFiles(t, ada.token, chatId, [
      { bytes: pngOf(64, 48), filename: 'ok.png' },
      { bytes: pdfOf(), filename: 'ok.pdf' },
      { bytes: elfOf(), filename: 'bad.pdf' },
    ]);
    expect(res.status).toBe(415);
    await expectNothingStored(t, chatId);
  });

  it('refuses a file over 25 MB with 413 and stores nothing; exactly 25 MB is fine', async () => {
    const t = app();
    const { ada, chatId } = await pair(t);
    // Valid text, so only the size can be the reason.
    const big = Buffer.alloc(26 * 1024 * 1024, 'a');
    const res = await uploadFiles(t, ada.token, chatId, [
      { bytes: pdfOf(), filename: 'small.pdf' },
      { bytes: big, filename: 'big.txt' },
    ]);
    expect(res.status, res.text.slice(0, 200)).toBe(413);
    expect(res.body.detail).toMatch(/25 MB/);
    await expectNothingStored(t, chatId);

    const edge = Buffer.concat([pdfOf(), randomBytes(25 * 1024 * 1024 - pdfOf().length)]);
    const ok = await uploadFiles(t, ada.token, chatId, [{ bytes: edge, filename: 'edge.pdf' }]);
    expect(ok.status, ok.text.slice(0, 200)).toBe(200);
    expect(ok.body.files[0]).toMatchObject({ type: 'pdf', size: 25 * 1024 * 1024 });
  });

  it('answers a non-member 404, no token 401, and a request without files 400', async () => {
    const t = app();
    const {
      chatId,
      people: [ada],
    } = await groupOf(t, 'Uploads', 'Ada', 'Grace');
    const [eve] = await people(t, 'Eve');
    const png = pngOf(64, 48);

    const outsider = await uploadFiles(t, eve.token, chatId, [{ bytes: png, filename: 'x.png' }]);
    expect(outsider.status).toBe(404);
    expect(outsider.text).not.toContain('Uploads');
    expect(
      (await uploadFiles(t, eve.token, 'no-such-chat', [{ bytes: png, filename: 'x.png' }])).status,
    ).toBe(404);
    expect((await uploadFiles(t, null, chatId, [{ bytes: png, filename: 'x.png' }])).status).toBe(401);
    expect((await t.post(`/api/chats/${chatId}/attachments/`, { files: [] }, ada.token)).status).toBe(400);
    expect((await uploadFiles(t, ada.token, chatId, [])).status).toBe(400);
    expect(
      (await uploadFiles(t, ada.token, chatId, [{ bytes: Buffer.alloc(0), filename: 'empty.txt' }])).status,
    ).toBe(400);
    await expectNothingStored(t, chatId);
  });
});
