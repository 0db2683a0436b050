import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { asStorageFull } from './errors';

// Uploads on their way in: each file of a request is streamed to a temp file of its own (a socket's worth of
// memory, whatever its size), checked and thumbnailed from there, then streamed on to the file store. A file
// whose stream fails (a request cut off halfway) is removed at once; the caller removes the others when the
// request is over, whatever happened. Files a crash left behind are swept when they are an hour old.

export interface TempFile {
  path: string;
  size: number;
  remove(): Promise<void>;
}

const STALE_MS = 3600_000;

export class TempFiles {
  private ready: Promise<void> | null = null;

  constructor(readonly dir: string) {}

  /**
   * Creates the directory once and sweeps it. A failed creation (a full disk, a missing mount) is forgotten, so
   * the next upload tries again instead of every upload failing until a restart.
   */
  private prepare(): Promise<void> {
    this.ready ??= fs
      .mkdir(this.dir, { recursive: true, mode: 0o700 })
      .then(() => this.sweep())
      .catch((err: unknown) => {
        this.ready = null;
        throw asStorageFull(err);
      });
    return this.ready;
  }

  /** Writes the stream to a fresh temp file and returns it; on a failure nothing is left behind. */
  async write(stream: Readable): Promise<TempFile> {
    await this.prepare();
    const file = path.join(this.dir, `${randomBytes(12).toString('base64url')}.part`);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(stream, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (err) {
      await fs.rm(file, { force: true });
      // A full disk is the server's to tell plainly (507), not a failed request.
      throw asStorageFull(err);
    }
    return { path: file, size, remove: () => fs.rm(file, { force: true }) };
  }

  /** Removes temp files older than an hour (a crash's leftovers; other processes may share the directory). */
  async sweep(now = Date.now()): Promise<void> {
    for (const name of await fs.readdir(this.dir).catch(() => [] as string[])) {
      const file = path.join(this.dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat?.isFile() && now - stat.mtimeMs > STALE_MS) await fs.rm(file, { force: true });
    }
  }
}
