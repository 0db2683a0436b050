import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { RangeNotSatisfiableError, resolveRange } from './storage';
import { parseStorageUrl } from './storage-url';
import { TempFiles } from './temp-files';

describe('STORAGE_URL', () => {
  it('names the local directory, another directory or a bucket with a prefix', () => {
    expect(parseStorageUrl(undefined, '/srv/parley')).toEqual({ kind: 'local', root: '/srv/parley/media' });
    expect(parseStorageUrl('local', '/srv/parley')).toEqual({ kind: 'local', root: '/srv/parley/media' });
    expect(parseStorageUrl('file:///mnt/files', '/srv')).toEqual({ kind: 'local', root: '/mnt/files' });
    expect(parseStorageUrl('/mnt/files/', '/srv')).toEqual({ kind: 'local', root: '/mnt/files' });
    expect(parseStorageUrl('s3://parley-files', '/srv')).toEqual({
      kind: 's3',
      bucket: 'parley-files',
      prefix: '',
    });
    expect(parseStorageUrl('s3://parley-files/prod/eu/', '/srv')).toEqual({
      kind: 's3',
      bucket: 'parley-files',
      prefix: 'prod/eu',
    });
  });

  it('refuses anything else with the forms it takes', () => {
    expect(() => parseStorageUrl('ftp://host/x', '/srv')).toThrow(
      'expected local, file:///absolute/path or s3://bucket[/prefix]',
    );
    expect(() => parseStorageUrl('media', '/srv')).toThrow('expected local');
    expect(() => parseStorageUrl('s3://UPPER', '/srv')).toThrow('not a valid bucket name');
    expect(() => parseStorageUrl('s3://', '/srv')).toThrow('not a valid bucket name');
    expect(() => parseStorageUrl('s3://ok-bucket/a b', '/srv')).toThrow('a prefix may hold');
  });

  it('is read with the S3 settings by the configuration, which refuses half a key pair', () => {
    const config = loadConfig({
      DATA_DIR: '/srv/parley',
      STORAGE_URL: 's3://parley-files/prod',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'true',
      AWS_ACCESS_KEY_ID: 'id',
      AWS_SECRET_ACCESS_KEY: 'secret',
    });
    expect(config.storage).toEqual({ kind: 's3', bucket: 'parley-files', prefix: 'prod' });
    expect(config.s3).toEqual({
      endpoint: 'http://minio:9000',
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
    });
    expect(loadConfig({ DATA_DIR: '/srv/parley' }).storage).toEqual({
      kind: 'local',
      root: '/srv/parley/media',
    });
    expect(() => loadConfig({ AWS_ACCESS_KEY_ID: 'id' })).toThrow(
      'set both AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY',
    );
    expect(() => loadConfig({ STORAGE_URL: 'bucket' })).toThrow('Invalid configuration: STORAGE_URL:');
    expect(() => loadConfig({ S3_ENDPOINT: 'not a url' })).toThrow('S3_ENDPOINT');
  });
});

describe('byte ranges', () => {
  it('resolves ranges against a size, clamping the end and refusing a start past it', () => {
    expect(resolveRange(undefined, 10)).toEqual({ start: 0, end: 9 });
    expect(resolveRange({ start: 2, end: 4 }, 10)).toEqual({ start: 2, end: 4 });
    expect(resolveRange({ start: 2, end: 400 }, 10)).toEqual({ start: 2, end: 9 });
    expect(resolveRange({ suffix: 3 }, 10)).toEqual({ start: 7, end: 9 });
    expect(resolveRange({ suffix: 30 }, 10)).toEqual({ start: 0, end: 9 });
    expect(() => resolveRange({ start: 10 }, 10)).toThrow(RangeNotSatisfiableError);
    expect(() => resolveRange({ start: 5, end: 4 }, 10)).toThrow(RangeNotSatisfiableError);
    expect(() => resolveRange({ suffix: 0 }, 10)).toThrow(RangeNotSatisfiableError);
  });
});

describe('upload temp files', () => {
  it('keeps a received stream, removes one that failed, and sweeps leftovers an hour old', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'parley-temp-'));
    try {
      const temp = new TempFiles(dir);
      const kept = await temp.write(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
      expect(kept.size).toBe(11);
      expect(await fs.readFile(kept.path, 'utf8')).toBe('hello world');

      const failing = new Readable({
        read() {
          this.push(Buffer.alloc(1000));
          this.destroy(new Error('reset'));
        },
      });
      await expect(temp.write(failing)).rejects.toThrow('reset');
      expect(await fs.readdir(dir)).toEqual([path.basename(kept.path)]);

      const old = path.join(dir, 'left-by-a-crash.part');
      await fs.writeFile(old, 'x');
      const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
      await fs.utimes(old, twoHoursAgo, twoHoursAgo);
      await temp.sweep();
      expect(await fs.readdir(dir)).toEqual([path.basename(kept.path)]);
      await kept.remove();
      expect(await fs.readdir(dir)).toEqual([]);
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
