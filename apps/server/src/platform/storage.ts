import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

// Stored files (avatars now, chat attachments later) behind one small interface, so a bucket-backed
// implementation can replace the local disk without touching the modules. Keys are relative,
// slash-separated paths such as `avatars/3f9c….webp`; anything that could leave the root is refused.

export interface StoredFile {
  stream: Readable;
  size: number;
}

export interface FileStorage {
  /** Writes the whole file under key, replacing any earlier one; readers never see a half-written file. */
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The file's bytes as a stream, or null when there is no such file. */
  get(key: string): Promise<StoredFile | null>;
  /** A small file's bytes in memory (avatars), or null when there is no such file. */
  read(key: string): Promise<Buffer | null>;
  /** Removes the file; a missing file is not an error. */
  delete(key: string): Promise<void>;
}

export class InvalidStorageKeyError extends Error {
  constructor(key: string) {
    super(`Invalid storage key: ${JSON.stringify(key.slice(0, 100))}`);
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

/** Files under one directory (DATA_DIR/media by default). */
export class LocalDiskStorage implements FileStorage {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new InvalidStorageKeyError(key);
    const full = path.resolve(this.root, ...key.split('/'));
    // isSafeKey already rules out traversal; this is the belt to its braces.
    if (!full.startsWith(this.root + path.sep)) throw new InvalidStorageKeyError(key);
    return full;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    // Write beside the target, then rename: atomic on one file system.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await fs.writeFile(temp, bytes, { flag: 'wx', mode: 0o640 });
      await fs.rename(temp, target);
    } catch (err) {
      await fs.rm(temp, { force: true });
      throw err;
    }
  }

  async get(key: string): Promise<StoredFile | null> {
    if (!isSafeKey(key)) return null;
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.pathOf(key), 'r');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw err;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) {
        await handle.close();
        return null;
      }
      // The stream closes the handle when it ends or is destroyed.
      return { stream: handle.createReadStream(), size: stat.size };
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
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }
}
