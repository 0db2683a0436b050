import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// Stored files (avatars, chat attachments and their thumbnails) behind one small interface, with two back ends:
// a local directory (DATA_DIR/media by default) and any S3-compatible object store (s3-storage.ts). Keys are
// relative, slash-separated paths such as `avatars/3f9c….webp`; anything that could leave the root is refused.

/**
 * Part of a file: from `start` to `end` inclusive (to the last byte when `end` is absent), or its last `suffix`
 * bytes — the three forms of an HTTP `Range: bytes=…` header.
 */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface StoredFile {
  stream: Readable;
  /** Bytes in `stream`. */
  size: number;
  /** The whole file's size; with a range, the stream holds bytes `start`…`end` (inclusive) of it. */
  total: number;
  start: number;
  end: number;
}

export interface StoredEntry {
  key: string;
  size: number;
}

export interface FileStorage {
  /** Where the files are, for logs and the admin commands ("directory /srv/parley/media", "s3://bucket/prefix"). */
  readonly description: string;
  /** Writes a small file (an avatar, a thumbnail) under key, replacing any earlier one. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /**
   * Writes `size` bytes read from `stream` under key, never holding them all in memory. Readers never see a
   * half-written file: when the stream fails or falls short, nothing is left under key (or beside it).
   */
  putStream(key: string, stream: Readable, size: number): Promise<void>;
  /** The file's bytes (or a range of them) as a stream; null when there is no such file. */
  get(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** A small file's bytes in memory (avatars), or null when there is no such file. */
  read(key: string): Promise<Buffer | null>;
  /** The file's size, or null when there is no such file. */
  size(key: string): Promise<number | null>;
  /** Every stored file whose key starts with `prefix` (for copy-files), in no particular order. */
  list(prefix?: string): AsyncIterable<StoredEntry>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Lets go of connections (the S3 client's sockets). */
  close(): void;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
  }
}

/** A range that starts past the end of the file (HTTP 416). */
export class RangeNotSatisfiableError extends Error {
  constructor(readonly total: number) {
    super('The requested range is not satisfiable.');
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/** A key is 1 to 4 segments of letters, digits, `.`, `_` and `-`; no segment starts with a dot, so no `..`. */
export function isSafeKey(key: string): boolean {
  if (typeof key !== 'string' || key.length === 0 || key.length > 512) return false;
  const segments = key.split('/');
  return segments.length <= 4 && segments.every((s) => SEGMENT.test(s));
}

/** A random file name: 128 bits, URL-safe, so names can be public and cached forever. */
export const randomFileName = (extension: string): string =>
  `${randomBytes(16).toString('base64url')}.${extension}`;

/**
 * The inclusive byte positions a range asks for within a file of `total` bytes, clamped to its end; throws
 * RangeNotSatisfiableError for one that starts past the end (or asks an empty file for anything).
 */
export function resolveRange(range: ByteRange | undefined, total: number): { start: number; end: number } {
  if (!range) return { start: 0, end: total - 1 };
  if ('suffix' in range) {
    if (range.suffix <= 0 || total === 0) throw new RangeNotSatisfiableError(total);
    return { start: Math.max(0, total - range.suffix), end: total - 1 };
  }
  if (range.start >= total || (range.end !== undefined && range.end < range.start))
    throw new RangeNotSatisfiableError(total);
  return { start: range.start, end: Math.min(range.end ?? total - 1, total - 1) };
}

/** A stream that does not hold the size it was announced with (a cut-off upload, a truncated source). */
export class StreamSizeError extends Error {
  constructor(expected: number, got: number) {
    super(`Expected a stream of ${expected} bytes, got ${got}${got > expected ? ' or more' : ''}.`);
  }
}

/** Passes bytes through and fails (StreamSizeError) unless exactly `size` of them pass. */
export function exactly(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new StreamSizeError(size, seen) : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : new StreamSizeError(size, seen));
    },
  });
}

const isMissing = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
};

/** Files under one directory (DATA_DIR/media by default). */
export class LocalDiskStorage implements FileStorage {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `directory ${this.root}`;
  }

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new InvalidStorageKeyError(key);
    const full = path.resolve(this.root, ...key.split('/'));
    // isSafeKey already rules out traversal; this is the belt to its braces.
    if (!full.startsWith(this.root + path.sep)) throw new InvalidStorageKeyError(key);
    return full;
  }

  /** Writes through a temp file beside the target, then renames it: atomic on one file system. */
  private async writeAtomically(key: string, write: (temp: string) => Promise<void>): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await write(temp);
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  put(key: string, bytes: Uint8Array): Promise<void> {
    return this.writeAtomically(key, (temp) => fs.writeFile(temp, bytes, { flag: 'wx', mode: 0o640 }));
  }

  putStream(key: string, stream: Readable, size: number): Promise<void> {
    return this.writeAtomically(key, async (temp) => {
      const file = createWriteStream(temp, { flags: 'wx', mode: 0o640 });
      try {
        await pipeline(stream, exactly(size), file);
      } catch (err) {
        // A failed pipeline destroys the file stream while its open may still be under way, which creates the
        // temp file after the failure: its close comes after that, so the removal waits for it.
        if (!file.closed) await once(file, 'close');
        throw err;
      }
    });
  }

  async get(key: string, range?: ByteRange): Promise<StoredFile | null> {
    if (!isSafeKey(key)) return null;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      const { start, end } = resolveRange(range, stat.size);
      // The stream closes the handle when it ends or is destroyed.
      const stream = handle.createReadStream({ start, end: Math.max(end, start) });
      return { stream, size: end - start + 1, total: stat.size, start, end };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    if (!isSafeKey(key)) return null;
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    if (!isSafeKey(key)) return null;
    try {
      const stat = await fs.stat(this.pathOf(key));
      return stat.isFile() ? stat.size : null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async *list(prefix = ''): AsyncIterable<StoredEntry> {
    const walk = async function* (dir: string, rel: string): AsyncGenerator<StoredEntry> {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await fs.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if (isMissing(err)) return;
        throw err;
      }
      for (const entry of entries) {
        const key = rel ? `${rel}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
        // Temp files of writes in flight (`….tmp`) are not stored files; isSafeKey keeps out anything odd.
        else if (entry.isFile() && !entry.name.endsWith('.tmp') && isSafeKey(key) && key.startsWith(prefix)) {
          const stat = await fs.stat(path.join(dir, entry.name));
          yield { key, size: stat.size };
        }
      }
    };
    yield* walk(this.root, '');
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  close(): void {}
}
