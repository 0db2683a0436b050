import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { pdfOf } from '@parley/fixtures';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type S3TestServer, startS3Server } from '../helpers/s3-server';
import { killAll, type ServerProcess, spawnServer } from '../helpers/server-process';
import { createStore, type ServerStore } from '../helpers/server-store';
import { streamUpload } from '../helpers/streamed-upload';
import { sleep } from '../helpers/waits';

// Uploads stream to the file store with bounded memory: twenty concurrent 25 MB uploads raise a real
// server process's resident memory (VmRSS in /proc/<pid>/status) by less than 100 MB — with every byte of
// 500 MB passing through it — on the local directory and on an S3-compatible store. Four of the twenty are
// photos (25 MB JPEGs of 24 megapixels), which are decoded for their thumbnails.

const MB = 1024 * 1024;
const FILE_SIZE = 25 * MB;
const CONCURRENT = 20;
const BUDGET_KIB = 100 * 1024;
const PHOTOS = 4;

/** A 25 MB JPEG photo: 24 megapixels of noise (about 19 MB), padded to 25 MB after its end marker. */
async function photoOf25MB(): Promise<Buffer> {
  const [width, height] = [6000, 4000];
  const jpeg = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
  if (jpeg.length > FILE_SIZE) throw new Error(`the photo is ${jpeg.length} bytes, over 25 MB`);
  // Bytes after a JPEG's end marker are ignored by decoders (cameras put previews there).
  return Buffer.concat([jpeg, Buffer.alloc(FILE_SIZE - jpeg.length)]);
}

let s3: S3TestServer;
const stores: ServerStore[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await killAll();
  for (const store of stores) await store.close();
  await s3?.close();
});

function status(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(text);
  if (!match?.[1]) throw new Error(`no ${field} for ${pid}`);
  return Number(match[1]);
}

/** Resets the process's peak RSS (VmHWM) so it measures from now; false where the kernel does not allow it. */
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const upload = (proc: ServerProcess, token: string, chatId: string, name: string, head = pdfOf()) =>
  streamUpload({
    baseUrl: proc.baseUrl,
    path: `/api/chats/${chatId}/attachments/`,
    token,
    files: [{ filename: name, head, size: FILE_SIZE }],
  });

const backends = [
  { name: 'local directory', env: () => ({}) },
  { name: 'S3-compatible store', env: () => s3.env(`mem-${Date.now()}`) },
];

describe.each(backends)('twenty concurrent 25 MB uploads ($name)', (backend) => {
  it('raise the server process RSS by less than 100 MB', { timeout: 240_000 }, async () => {
    const store = await createStore({ postgresUrl: process.env.DATABASE_URL });
    stores.push(store);
    const proc = await spawnServer({ store, env: backend.env(), label: 'uploads' });
    const ada = await proc.signUp({ first_name: 'Ada', last_name: 'Tester' });
    const grace = await proc.signUp({ first_name: 'Grace', last_name: 'Tester' });
    const chat = await proc.get(`/api/chats/start/${grace.user.username}/`, ada.token);
    expect(chat.status, chat.text).toBe(200);
    const chatId = String(chat.body.chat_id);

    // Warm up: a document and a photo the whole way, so code paths and pools are in place before the baseline.
    const photo = await photoOf25MB();
    for (const [name, head] of [
      ['warm-up.pdf', pdfOf()],
      ['warm-up.jpg', photo],
    ] as const) {
      const first = await upload(proc, ada.token, chatId, name, head);
      expect(first !== 'cut' && first.status).toBe(200);
    }
    await sleep(500);
    const before = status(proc.pid, 'VmRSS');
    const exactPeak = resetPeak(proc.pid);

    let sampled = before;
    const sampler = setInterval(() => {
      sampled = Math.max(sampled, status(proc.pid, 'VmRSS'));
    }, 20);
    let outcomes: Awaited<ReturnType<typeof upload>>[];
    try {
      outcomes = await Promise.all(
        Array.from({ length: CONCURRENT }, (_, i) =>
          i < PHOTOS
            ? upload(proc, ada.token, chatId, `photo-${i}.jpg`, photo)
            : upload(proc, ada.token, chatId, `file-${i}.pdf`),
        ),
      );
    } finally {
      clearInterval(sampler);
    }
    const peak = Math.max(sampled, exactPeak ? status(proc.pid, 'VmHWM') : 0);
    const rise = peak - before;
    console.log(
      `[${backend.name}] RSS before ${Math.round(before / 1024)} MB, peak ${Math.round(peak / 1024)} MB ` +
        `(${exactPeak ? 'VmHWM and ' : ''}sampled), rise ${Math.round(rise / 1024)} MB for ` +
        `${CONCURRENT} × ${FILE_SIZE / MB} MB`,
    );

    expect(outcomes.map((o) => (o === 'cut' ? 'cut' : o.status))).toEqual(Array(CONCURRENT).fill(200));
    const sizes = (await store.db.selectFrom('files').select('size').execute()).map((r) => r.size);
    expect(sizes).toEqual(Array(CONCURRENT + 2).fill(FILE_SIZE));
    const thumbs = await store.db
      .selectFrom('files')
      .select('thumb_key')
      .where('type', '=', 'image')
      .execute();
    expect(thumbs.filter((r) => r.thumb_key !== null)).toHaveLength(PHOTOS + 1);
    expect(rise).toBeLessThan(BUDGET_KIB);
    expect(proc.errors).toEqual([]);
  });
});
