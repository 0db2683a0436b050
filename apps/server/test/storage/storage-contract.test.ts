import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/platform/s3-storage';
import {
  type FileStorage,
  InvalidStorageKeyError,
  LocalDiskStorage,
  RangeNotSatisfiableError,
  type StoredFile,
} from '../../src/platform/storage';
import { openStorage } from '../../src/platform/storage-url';
import { filesUnder } from '../helpers/file-tree';
import { type S3TestServer, startS3Server } from '../helpers/s3-server';

// One contract, two back ends: every test below runs against the local directory and against a real
// S3-compatible server started on this machine (s3rver), through the same FileStorage interface the app uses.
// Each test gets a store of its own (a fresh directory; a fresh key prefix in the bucket).

let s3: S3TestServer;
const tempDirs: string[] = [];
const opened: FileStorage[] = [];

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  for (const store of opened) store.close();
  await s3?.close();
  for (const dir of tempDirs) await fs.rm(dir, { recursive: true, force: true });
});

interface Backend {
  name: string;
  fresh(): Promise<FileStorage>;
  /** Everything the back end holds for this store, temp files included (nothing may be left behind). */
  leftovers(store: FileStorage): Promise<string[]>;
}

const backends: Backend[] = [
  {
    name: 'local directory',
    async fresh() {
      const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-store-'));
      tempDirs.push(dir);
      return new LocalDiskStorage(dir);
    },
    async leftovers(store) {
      const root = (store as LocalDiskStorage).root;
      return (await filesUnder(root)).map((file) => path.relative(root, file).split(path.sep).join('/'));
    },
  },
  {
    name: 'S3-compatible server (s3rver)',
    async fresh() {
      const store = await openStorage(
        { kind: 's3', bucket: s3.bucket, prefix: `t-${randomBytes(6).toString('hex')}` },
        s3.settings,
      );
      opened.push(store);
      return store;
    },
    async leftovers(store) {
      const keys: string[] = [];
      for await (const entry of store.list()) keys.push(entry.key);
      return keys;
    },
  },
];

async function bytesOf(file: StoredFile | null): Promise<Buffer> {
  if (!file) throw new Error('no such file');
  const chunks: Buffer[] = [];
  for await (const chunk of file.stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A stream of `total` bytes in 64 KiB chunks that fails after `failAfter` bytes (a cut-off upload). */
function failingStream(bytes: Buffer, failAfter: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAfter) {
        this.destroy(new Error('connection reset'));
        return;
      }
      const chunk = bytes.subarray(sent, Math.min(sent + 64 * 1024, failAfter));
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

describe.each(backends)('file storage contract: $name', (backend) => {
  it('puts, reads and streams a file back; a second put replaces it', async () => {
    const store = await backend.fresh();
    const bytes = randomBytes(70_000);
    await store.put('avatars/a.webp', bytes);
    expect((await store.read('avatars/a.webp'))?.equals(bytes)).toBe(true);
    expect(await store.size('avatars/a.webp')).toBe(bytes.length);
    const file = await store.get('avatars/a.webp');
    expect(file).toMatchObject({ size: bytes.length, total: bytes.length, start: 0, end: bytes.length - 1 });
    expect((await bytesOf(file)).equals(bytes)).toBe(true);

    const other = Buffer.from('replaced');
    await store.put('avatars/a.webp', other);
    expect((await store.read('avatars/a.webp'))?.toString()).toBe('replaced');
    expect(await backend.leftovers(store)).toEqual(['avatars/a.webp']);
  });

  it('takes a large file as a stream of known size and gives it back byte for byte', async () => {
    const store = await backend.fresh();
    const bytes = randomBytes(6 * 1024 * 1024 + 123);
    await store.putStream('files/big.mp4', Readable.from(chunked(bytes)), bytes.length);
    expect(await store.size('files/big.mp4')).toBe(bytes.length);
    expect((await bytesOf(await store.get('files/big.mp4'))).equals(bytes)).toBe(true);
  });

  it('leaves nothing behind when the stream fails halfway or falls short of its size', async () => {
    const store = await backend.fresh();
    const bytes = randomBytes(2 * 1024 * 1024);
    await expect(
      store.putStream('files/cut.pdf', failingStream(bytes, 1024 * 1024), bytes.length),
    ).rejects.toThrow();
    await expect(
      store.putStream('files/short.pdf', Readable.from([bytes.subarray(0, 1000)]), bytes.length),
    ).rejects.toThrow();
    await expect(store.putStream('files/long.pdf', Readable.from([bytes]), 1000)).rejects.toThrow();
    for (const key of ['files/cut.pdf', 'files/short.pdf', 'files/long.pdf']) {
      expect(await store.get(key)).toBeNull();
      expect(await store.size(key)).toBeNull();
    }
    expect(await backend.leftovers(store)).toEqual([]);
  });

  it('serves ranges: a-b, a-, the last n bytes; a range past the end is refused with the size', async () => {
    const store = await backend.fresh();
    const bytes = randomBytes(10_000);
    await store.put('files/v.webm', bytes);

    const middle = await store.get('files/v.webm', { start: 100, end: 1099 });
    expect(middle).toMatchObject({ size: 1000, start: 100, end: 1099, total: 10_000 });
    expect((await bytesOf(middle)).equals(bytes.subarray(100, 1100))).toBe(true);

    const tail = await store.get('files/v.webm', { start: 9_000 });
    expect(tail).toMatchObject({ size: 1000, start: 9_000, end: 9_999, total: 10_000 });
    expect((await bytesOf(tail)).equals(bytes.subarray(9_000))).toBe(true);

    const suffix = await store.get('files/v.webm', { suffix: 10 });
    expect(suffix).toMatchObject({ size: 10, start: 9_990, end: 9_999, total: 10_000 });
    expect((await bytesOf(suffix)).equals(bytes.subarray(9_990))).toBe(true);

    // An end past the last byte is clamped to it.
    const clamped = await store.get('files/v.webm', { start: 9_500, end: 20_000 });
    expect(clamped).toMatchObject({ size: 500, end: 9_999, total: 10_000 });
    expect((await bytesOf(clamped)).equals(bytes.subarray(9_500))).toBe(true);

    const past = store.get('files/v.webm', { start: 10_000 });
    await expect(past).rejects.toBeInstanceOf(RangeNotSatisfiableError);
    await expect(past).rejects.toMatchObject({ total: 10_000 });
  });

  it('answers null for a missing file, and deleting one is no error', async () => {
    const store = await backend.fresh();
    expect(await store.get('files/none.pdf')).toBeNull();
    expect(await store.get('files/none.pdf', { start: 5 })).toBeNull();
    expect(await store.read('files/none.pdf')).toBeNull();
    expect(await store.size('files/none.pdf')).toBeNull();
    await store.delete('files/none.pdf');
  });

  it('deletes a file: it is gone for get, read, size and list', async () => {
    const store = await backend.fresh();
    await store.put('files/x.txt', Buffer.from('x'));
    await store.put('files/y.txt', Buffer.from('yy'));
    await store.delete('files/x.txt');
    expect(await store.get('files/x.txt')).toBeNull();
    expect(await store.read('files/x.txt')).toBeNull();
    expect(await store.size('files/x.txt')).toBeNull();
    const listed = [];
    for await (const entry of store.list()) listed.push(entry);
    expect(listed).toEqual([{ key: 'files/y.txt', size: 2 }]);
  });

  it('lists its files by prefix with their sizes, and sees none of another store', async () => {
    const store = await backend.fresh();
    const neighbour = await backend.fresh();
    await neighbour.put('files/theirs.txt', Buffer.from('not mine'));
    await store.put('avatars/one.webp', Buffer.alloc(3));
    await store.put('files/two.pdf', Buffer.alloc(5));
    await store.put('files/three.png', Buffer.alloc(7));
    const all = [];
    for await (const entry of store.list()) all.push(entry);
    expect(all.sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'avatars/one.webp', size: 3 },
      { key: 'files/three.png', size: 7 },
      { key: 'files/two.pdf', size: 5 },
    ]);
    const files = [];
    for await (const entry of store.list('files/')) files.push(entry.key);
    expect(files.sort()).toEqual(['files/three.png', 'files/two.pdf']);
  });

  it('refuses keys that could leave its root', async () => {
    const store = await backend.fresh();
    for (const key of ['../escape.txt', 'files/../../x', '/abs', 'files/.hidden', '', 'a/b/c/d/e']) {
      await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(InvalidStorageKeyError);
      expect(await store.get(key)).toBeNull();
    }
    expect(await backend.leftovers(store)).toEqual([]);
  });
});

describe('S3 back end at start', () => {
  it('says clearly when the bucket cannot be reached', async () => {
    await expect(
      openStorage({ kind: 's3', bucket: 'no-such-bucket', prefix: '' }, s3.settings),
    ).rejects.toThrow(
      /The file store s3:\/\/no-such-bucket at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(HTTP 404\)/,
    );
    await expect(
      openStorage(
        { kind: 's3', bucket: s3.bucket, prefix: '' },
        { ...s3.settings, credentials: { accessKeyId: 'NOBODY', secretAccessKey: 'S3RVER' } },
      ),
    ).rejects.toThrow(/cannot be reached \(HTTP 403\)/);
  });

  it('keeps its objects under the prefix inside the bucket', async () => {
    const store = new S3Storage({ ...s3.settings, bucket: s3.bucket, prefix: 'nested/deeper' });
    opened.push(store);
    await store.put('files/p.txt', Buffer.from('p'));
    const root = new S3Storage({ ...s3.settings, bucket: s3.bucket, prefix: '' });
    opened.push(root);
    expect((await root.read('nested/deeper/files/p.txt'))?.toString()).toBe('p');
  });
});

function* chunked(bytes: Buffer, size = 256 * 1024): Generator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}
