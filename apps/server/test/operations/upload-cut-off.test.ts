import fs from 'node:fs/promises';
import path from 'node:path';
import { pdfOf } from '@parley/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/platform/s3-storage';
import { fileRows } from '../attachments/attachment-helpers';
import { people, startChat } from '../chats/chat-helpers';
import { filesUnder } from '../helpers/file-tree';
import { type S3TestServer, startS3Server } from '../helpers/s3-server';
import { streamUpload } from '../helpers/streamed-upload';
import { startTestApp, type TestApp } from '../helpers/test-app';
import { until } from '../helpers/waits';

// An upload cut off halfway (the browser closed, the network dropped) leaves nothing behind: no file
// row, no stored object, no temp file — on the local directory and on an S3-compatible store alike, whether
// the cut comes in the first file or after complete ones of the same request.

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
});

const MB = 1024 * 1024;

const backends: { name: string; env: () => Record<string, string> }[] = [
  { name: 'local directory', env: () => ({}) },
  { name: 'S3-compatible store', env: () => s3.env(`cut-${Date.now()}`) },
];

describe.each(backends)('an upload cut off halfway ($name)', (backend) => {
  for (const [what, cutAfter] of [
    ['in its first file', 6 * MB],
    ['in its third file, after two complete ones', 2 * 4 * MB + 3 * MB],
  ] as const) {
    it(`leaves no row, no stored object and no temp file when cut ${what}`, async () => {
      const env = backend.env();
      const t: TestApp = await startTestApp({ env });
      const bucket = env.STORAGE_URL
        ? new S3Storage({ ...s3.settings, bucket: s3.bucket, prefix: env.STORAGE_URL.split('/').pop() ?? '' })
        : null;
      try {
        const [ada, grace] = await people(t, 'Ada', 'Grace');
        const chatId = await startChat(t, ada.token, grace.user.username);
        const pdf = pdfOf();
        const files = [1, 2, 3].map((n) => ({ filename: `part${n}.pdf`, head: pdf, size: 4 * MB + n }));
        files[2] = { filename: 'big.pdf', head: pdf, size: 20 * MB };
        const temp = path.join(t.dataDir, 'tmp', 'uploads');

        const outcome = await streamUpload({
          baseUrl: t.baseUrl,
          path: `/api/chats/${chatId}/attachments/`,
          token: ada.token,
          files,
          cutAfter,
          // The server had received part of the upload when it was cut: staged in temp files.
          beforeCut: async () => {
            const staged = await filesUnder(temp);
            const sizes = await Promise.all(staged.map(async (f) => (await fs.stat(f)).size));
            expect(sizes.reduce((a, b) => a + b, 0)).toBeGreaterThan(cutAfter - 2 * MB);
          },
        });
        expect(outcome).toBe('cut');
        // Once it noticed the cut, everything is gone.
        await until(async () => (await filesUnder(temp)).length === 0, 'the temp files to go', 10_000);
        expect(await fileRows(t, chatId)).toEqual([]);
        expect(await filesUnder(path.join(t.dataDir, 'media'))).toEqual([]);
        if (bucket) {
          const keys = [];
          for await (const entry of bucket.list()) keys.push(entry.key);
          expect(keys).toEqual([]);
        }

        // The same upload sent whole goes through: the cut was the only reason.
        const whole = await streamUpload({
          baseUrl: t.baseUrl,
          path: `/api/chats/${chatId}/attachments/`,
          token: ada.token,
          files,
        });
        expect(whole !== 'cut' && whole.status, JSON.stringify(whole)).toBe(200);
        expect((await fileRows(t, chatId)).map((r) => r.size)).toEqual(files.map((f) => f.size));
        expect(await filesUnder(temp)).toEqual([]);
      } finally {
        bucket?.close();
        await t.close();
      }
    });
  }
});
