import { randomBytes } from 'node:crypto';
import { mp4Of, pdfOf, pngOf } from '@parley/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/platform/s3-storage';
import { fetchPath, fileRows, uploadFiles, withParam } from '../attachments/attachment-helpers';
import { people, startChat } from '../chats/chat-helpers';
import { groupOf, mediaFiles } from '../groups/group-helpers';
import { type S3TestServer, startS3Server } from '../helpers/s3-server';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { makeJpeg, sendProfileForm } from '../profiles/profile-helpers';

// The whole app with STORAGE_URL=s3://bucket/prefix against a real S3-compatible server on this machine
// (s3rver): attachments go into the bucket (nothing under DATA_DIR/media), come back through the same signed
// URLs (ranges too), and deleting a message for everyone erases its objects; avatars live there too.

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

/** A fresh app on a fresh prefix of the bucket, and a client of its own on that prefix to look inside. */
async function withS3App(test: (t: TestApp, bucket: S3Storage) => Promise<void>) {
  const prefix = `app-${randomBytes(6).toString('hex')}`;
  const t = await startTestApp({ env: s3.env(prefix) });
  const bucket = new S3Storage({ ...s3.settings, bucket: s3.bucket, prefix });
  try {
    await test(t, bucket);
  } finally {
    bucket.close();
    await t.close();
  }
}

async function objects(bucket: S3Storage, prefix = ''): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of bucket.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

describe('attachments on S3', () => {
  it('stores uploads and thumbnails in the bucket and serves them by signed URL, whole or by range', async () => {
    await withS3App(async (t, bucket) => {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const chatId = await startChat(t, ada.token, grace.user.username);
      const png = pngOf(900, 600);
      // A real MP4 header and enough bytes after it for ranges to pick from.
      const video = Buffer.concat([mp4Of(), randomBytes(300_000)]);
      const res = await uploadFiles(t, ada.token, chatId, [
        { bytes: png, filename: 'beach.png', type: 'image/png' },
        { bytes: video, filename: 'clip.mp4', type: 'video/mp4' },
      ]);
      expect(res.status, res.text).toBe(200);
      const [image, clip] = res.body.files;
      expect(image).toMatchObject({ type: 'image', size: png.length, thumbnail: expect.any(String) });
      expect(clip).toMatchObject({ type: 'video', size: video.length, thumbnail: null });

      // Three objects (the image, its thumbnail, the video) under the prefix; nothing on the local disk.
      const rows = await fileRows(t, chatId);
      const keys = rows.flatMap((r) => [r.storage_key, r.thumb_key]).filter(Boolean);
      expect(await objects(bucket)).toEqual([...keys].sort());
      expect(keys).toHaveLength(3);
      expect(await mediaFiles(t, 'files')).toEqual([]);

      const served = await fetchPath(t, image.file);
      expect(served.status).toBe(200);
      expect(served.bytes.equals(png)).toBe(true);
      expect(served.headers.get('content-type')).toBe('image/png');
      expect(served.headers.get('accept-ranges')).toBe('bytes');
      expect(served.headers.get('content-security-policy')).toContain('sandbox');
      const thumb = await fetchPath(t, image.thumbnail);
      expect(thumb.status).toBe(200);
      expect((await sharp(thumb.bytes).metadata()).format).toBe('webp');

      // A player asks for pieces of the video.
      const piece = await fetchRange(t, clip.file, 'bytes=10-99');
      expect(piece.status).toBe(206);
      expect(piece.headers.get('content-range')).toBe(`bytes 10-99/${video.length}`);
      expect(piece.bytes.equals(video.subarray(10, 100))).toBe(true);
      const last = await fetchRange(t, clip.file, 'bytes=-16');
      expect(last.status).toBe(206);
      expect(last.bytes.equals(video.subarray(video.length - 16))).toBe(true);
      const past = await fetchRange(t, clip.file, `bytes=${video.length}-`);
      expect(past.status).toBe(416);
      expect(past.headers.get('content-range')).toBe(`bytes */${video.length}`);

      // The signature still guards every object.
      expect((await fetchPath(t, withParam(image.file, 'sig', 'AAAA'))).status).toBe(404);
      expect((await fetchPath(t, `/api/files/${image.id}/beach.png`)).status).toBe(404);
    });
  });

  it('erases the objects of a message deleted for everyone: its signed URLs answer 404', async () => {
    await withS3App(async (t, bucket) => {
      const {
        chatId,
        people: [ada],
      } = await groupOf(t, 'Holiday', 'Ada', 'Grace');
      const res = await uploadFiles(t, ada.token, chatId, [
        { bytes: pngOf(300, 200), filename: 'kept.png' },
        { bytes: pdfOf(), filename: 'gone.pdf' },
      ]);
      const [kept, gone] = res.body.files;
      const keptMessage = await t.ctx.messages.send(ada.user.id, chatId, {
        body: 'keep',
        file_ids: [kept.id],
      });
      const goneMessage = await t.ctx.messages.send(ada.user.id, chatId, {
        body: 'oops',
        file_ids: [gone.id],
      });
      expect(await objects(bucket)).toHaveLength(3);
      expect((await fetchPath(t, gone.file)).status).toBe(200);

      const del = await t.del(`/api/chats/${chatId}/messages/${goneMessage.message.id}/`, ada.token);
      expect(del.status, del.text).toBe(204);
      const left = (await fileRows(t, chatId)).flatMap((r) => [r.storage_key, r.thumb_key]).filter(Boolean);
      expect(left).toHaveLength(2);
      expect(await objects(bucket)).toEqual([...left].sort());
      expect((await fetchPath(t, gone.file)).status).toBe(404);
      expect((await fetchPath(t, kept.file)).status).toBe(200);
      expect(keptMessage.message.files).toHaveLength(1);
    });
  });

  it('refuses a whole request with one bad file and leaves the bucket empty', async () => {
    await withS3App(async (t, bucket) => {
      const [ada, grace] = await people(t, 'Ada', 'Grace');
      const chatId = await startChat(t, ada.token, grace.user.username);
      const res = await uploadFiles(t, ada.token, chatId, [
        { bytes: pngOf(64, 48), filename: 'ok.png' },
        { bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), filename: 'x.png' },
      ]);
      expect(res.status).toBe(415);
      expect(await fileRows(t, chatId)).toEqual([]);
      expect(await objects(bucket)).toEqual([]);
    });
  });
});

describe('avatars on S3', () => {
  it('stores a new picture in the bucket, serves it, and removes the old one when replaced', async () => {
    await withS3App(async (t, bucket) => {
      const [ada] = await people(t, 'Ada');
      const form = { first_name: 'Ada', last_name: 'Tester', username: ada.payload.username, bio: '' };
      const first = await sendProfileForm(t, ada.token, form, [
        { bytes: await makeJpeg(), filename: 'me.jpg' },
      ]);
      expect(first.status, first.text).toBe(200);
      const firstName = String(first.body.avatar).split('/').pop();
      expect(await objects(bucket, 'avatars/')).toEqual([`avatars/${firstName}`]);
      const served = await fetch(`${t.baseUrl}${first.body.avatar}`);
      expect(served.status).toBe(200);
      expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('webp');

      const second = await sendProfileForm(t, ada.token, form, [
        { bytes: pngOf(400, 400), filename: 'new.png' },
      ]);
      expect(second.status, second.text).toBe(200);
      const secondName = String(second.body.avatar).split('/').pop();
      expect(await objects(bucket, 'avatars/')).toEqual([`avatars/${secondName}`]);
      expect((await fetch(`${t.baseUrl}${first.body.avatar}`)).status).toBe(404);
      expect(await mediaFiles(t, 'avatars')).toEqual([]);
    });
  });
});

async function fetchRange(t: TestApp, url: string, range: string) {
  const res = await fetch(`${t.baseUrl}${url}`, { headers: { range } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
