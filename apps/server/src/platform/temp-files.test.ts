import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { TempFiles } from './temp-files';

describe('upload temp directory', () => {
  it('tries to create it again after a failed attempt instead of failing every upload', async () => {
    const base = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-temp-dir-'));
    try {
      // A file where the directory's parent should be makes the first creation fail, the way a full disk does.
      const parent = path.join(base, 'uploads');
      await fs.writeFile(parent, 'in the way');
      const temp = new TempFiles(path.join(parent, 'tmp'));
      await expect(temp.write(Readable.from([Buffer.from('first')]))).rejects.toThrow();

      await fs.rm(parent);
      const kept = await temp.write(Readable.from([Buffer.from('second')]));
      expect(await fs.readFile(kept.path, 'utf8')).toBe('second');
      expect((await fs.stat(temp.dir)).mode & 0o777).toBe(0o700);
    } finally {
      await fs.rm(base, { recursive: true, force: true });
    }
  });
});
