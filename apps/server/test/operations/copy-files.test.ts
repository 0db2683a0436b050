import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pdfOf, pngOf } from '@parley/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/platform/s3-storage';
import { type FileStorage, LocalDiskStorage } from '../../src/platform/storage';
import { fetchPath, uploadFiles } from '../attachments/attachment-helpers';
import { people, startChat } from '../chats/chat-helpers';
import { runOperatorCli } from '../helpers/operator-cli';
import { type S3TestServer, startS3Server } from '../helpers/s3-server';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { makeJpeg, sendProfileForm } from '../profiles/profile-helpers';

// `npm run admin -- copy-files <from> <to>`, run as an operator runs it: a laptop server's files go
// from DATA_DIR/media into a bucket of an S3-compatible store (a real s3rver on this machine), a second run
// copies nothing, Parley started on the bucket serves every old signed URL and avatar from it, and the files
// come back from the bucket into a directory byte for byte.

let s3: S3TestServer;
const cleanup: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const dir of cleanup) await fs.rm(dir, { recursive: true, force: true });
});

async function contents(store: FileStorage): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const entry of store.list()) {
    const bytes = await store.read(entry.key);
    out.set(entry.key, bytes ? bytes.toString('base64') : 'missing');
  }
  return new Map([...out].sort(([a], [b]) => a.localeCompare(b)));
}

/** The S3 part of the environment, without STORAGE_URL: the command is told its back ends. */
function s3Env(): Record<string, string> {
  const { STORAGE_URL: _, ...rest } = s3.env();
  return rest;
}

// Each command starts a TypeScript process (3-4 CPU seconds): minutes on a busy 2-core machine.
const SLOW = { timeout: 240_000 };

describe('copy-files', () => {
  it(
    'copies a server’s files to a bucket and back, idempotently; Parley on the bucket serves them',
    SLOW,
    async () => {
      const laptop: TestApp = await startTestApp();
      let onBucket: TestApp | null = null;
      const prefix = `moved-${randomBytes(4).toString('hex')}`;
      const bucket = new S3Storage({ ...s3.settings, bucket: s3.bucket, prefix });
      try {
        // A laptop server with an image (and its thumbnail), a PDF and an avatar on its disk.
        const [ada, grace] = await people(laptop, 'Ada', 'Grace');
        const chatId = await startChat(laptop, ada.token, grace.user.username);
        const png = pngOf(500, 300);
        const pdf = Buffer.concat([pdfOf(), randomBytes(3 * 1024 * 1024)]);
        const up = await uploadFiles(laptop, ada.token, chatId, [
          { bytes: png, filename: 'map.png' },
          { bytes: pdf, filename: 'plan.pdf' },
        ]);
        expect(up.status, up.text).toBe(200);
        const [image, document] = up.body.files;
        const form = { first_name: 'Ada', last_name: 'Tester', username: ada.payload.username, bio: '' };
        const avatar = await sendProfileForm(laptop, ada.token, form, [
          { bytes: await makeJpeg(), filename: 'me.jpg' },
        ]);
        expect(avatar.status, avatar.text).toBe(200);
        const local = new LocalDiskStorage(path.join(laptop.dataDir, 'media'));
        const original = await contents(local);
        expect([...original.keys()].map((k) => k.split('/')[0])).toEqual([
          'avatars',
          'files',
          'files',
          'files',
        ]);

        const env = { DATA_DIR: laptop.dataDir, ...s3Env() };
        const target = `s3://${s3.bucket}/${prefix}`;
        const first = await runOperatorCli(env, 'copy-files', 'local', target);
        expect(first.code, first.stderr + first.stdout).toBe(0);
        expect(first.stdout).toMatch(/Copied 4 files \(3\.\d MB\); 0 were already there\./);
        expect(await contents(bucket)).toEqual(original);

        // Again: nothing to do.
        const second = await runOperatorCli(env, 'copy-files', 'local', target);
        expect(second.code, second.stderr).toBe(0);
        expect(second.stdout).toContain('Copied 0 files (0.0 MB); 4 were already there.');

        // A file that changed or went missing at the target is copied again, and only that one.
        const [someKey] = [...original.keys()];
        await bucket.delete(someKey as string);
        const third = await runOperatorCli(env, 'copy-files', 'local', target);
        expect(third.stdout).toMatch(/Copied 1 files \(.*\); 3 were already there\./);

        // Parley on the bucket (same database) serves the old signed URLs and the avatar, with the disk's copies
        // moved away.
        await fs.rename(path.join(laptop.dataDir, 'media'), path.join(laptop.dataDir, 'media-old'));
        onBucket = await startTestApp({
          env: { DATA_DIR: laptop.dataDir, ...s3.env(prefix) },
          // On PostgreSQL the same schema as the laptop's (SQLite: the same file in DATA_DIR).
          config: { databaseSchema: laptop.ctx.config.databaseSchema },
        });
        const servedImage = await fetchPath(onBucket, image.file);
        expect(servedImage.status).toBe(200);
        expect(servedImage.bytes.equals(png)).toBe(true);
        expect((await fetchPath(onBucket, image.thumbnail)).status).toBe(200);
        const servedPdf = await fetchPath(onBucket, document.file);
        expect(servedPdf.bytes.equals(pdf)).toBe(true);
        const servedAvatar = await fetchPath(onBucket, avatar.body.avatar);
        expect(servedAvatar.status).toBe(200);
        expect(servedAvatar.bytes.toString('base64')).toBe(
          original.get(`avatars/${avatar.body.avatar.split('/').pop()}`),
        );

        // And back from the bucket into a directory of its own, byte for byte; again copies nothing.
        const back = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-back-'));
        cleanup.push(back);
        const home = pathToFileURL(back).toString();
        const returned = await runOperatorCli(env, 'copy-files', target, home);
        expect(returned.code, returned.stderr).toBe(0);
        expect(returned.stdout).toMatch(/Copied 4 files/);
        expect(await contents(new LocalDiskStorage(back))).toEqual(original);
        const again = await runOperatorCli(env, 'copy-files', target, back);
        expect(again.stdout).toContain('Copied 0 files (0.0 MB); 4 were already there.');
      } finally {
        bucket.close();
        await onBucket?.close();
        await laptop.close();
      }
    },
  );

  it('refuses a back end it does not know, and a copy onto itself', SLOW, async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-copy-'));
    cleanup.push(dataDir);
    const env = { DATA_DIR: dataDir, ...s3Env() };
    const unknown = await runOperatorCli(env, 'copy-files', 'ftp://host/files', 'local');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('expected local, file:///absolute/path or s3://bucket[/prefix]');
    const self = await runOperatorCli(env, 'copy-files', 'local', path.join(dataDir, 'media'));
    expect(self.code).toBe(1);
    expect(self.stderr).toContain('Source and target are the same');
    const missing = await runOperatorCli(env, 'copy-files', 'local');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Usage: npm run admin -- copy-files <from> <to>');
    const noBucket = await runOperatorCli(env, 'copy-files', 'local', 's3://no-such-bucket');
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain('cannot be reached (HTTP 404)');
  });
});
