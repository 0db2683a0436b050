import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

// Copying a directory of stored files while a server may be writing and deleting in it: files are immutable
// once written (stored under fresh random names, written aside and renamed into place), so a file already in
// the copy is skipped, a file that vanished meanwhile is no error, and half-written `.tmp` files are left out.

export interface TreeCopy {
  files: number;
  bytes: number;
}

const isPartial = (name: string) => name.endsWith('.tmp');

/** Copies every file under `from` that `to` lacks; `from` may be missing (nothing stored yet). */
export async function copyNewFiles(from: string, to: string): Promise<TreeCopy> {
  const done: TreeCopy = { files: 0, bytes: 0 };
  let entries: import('node:fs').Dirent[];
  try {
    entries = await fs.readdir(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return done;
    throw err;
  }
  await fs.mkdir(to, { recursive: true });
  for (const entry of entries) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      const sub = await copyNewFiles(source, target);
      done.files += sub.files;
      done.bytes += sub.bytes;
    } else if (entry.isFile() && !isPartial(entry.name)) {
      try {
        await fs.copyFile(source, target, constants.COPYFILE_EXCL);
        done.files += 1;
        done.bytes += (await fs.stat(target)).size;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EEXIST' && code !== 'ENOENT') throw err;
      }
    }
  }
  return done;
}

export async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}
