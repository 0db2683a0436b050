import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { S3Storage } from './s3-storage';
import { type FileStorage, LocalDiskStorage } from './storage';

// Where the files are, as STORAGE_URL (and `npm run admin -- copy-files <from> <to>`) name it:
//   local (or unset)        DATA_DIR/media
//   file:///srv/media       a directory of its own (an absolute path works too)
//   s3://bucket[/prefix]    a bucket of an S3-compatible store; endpoint, region and keys from S3_* / AWS_*

export type StorageSpec = { kind: 'local'; root: string } | { kind: 's3'; bucket: string; prefix: string };

export interface S3Settings {
  endpoint: string | null;
  region: string;
  forcePathStyle: boolean;
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

export const STORAGE_URL_FORMS = 'local, file:///absolute/path or s3://bucket[/prefix]';

/** S3's rules for bucket names: 3–63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The spec a STORAGE_URL names; throws with the accepted forms for anything else. */
export function parseStorageUrl(value: string | null | undefined, dataDir: string): StorageSpec {
  const text = (value ?? '').trim();
  if (text === '' || text === 'local') return { kind: 'local', root: path.join(dataDir, 'media') };
  if (text.startsWith('s3://')) {
    const [bucket = '', ...rest] = text.slice('s3://'.length).split('/');
    const prefix = rest.filter(Boolean).join('/');
    if (!BUCKET.test(bucket)) throw new Error(`${JSON.stringify(text)}: not a valid bucket name.`);
    if (!/^[A-Za-z0-9._/-]*$/.test(prefix))
      throw new Error(`${JSON.stringify(text)}: a prefix may hold letters, digits, '.', '_', '-' and '/'.`);
    return { kind: 's3', bucket, prefix };
  }
  if (text.startsWith('file://')) return { kind: 'local', root: fileURLToPath(text) };
  if (path.isAbsolute(text)) return { kind: 'local', root: path.resolve(text) };
  throw new Error(`${JSON.stringify(text)}: expected ${STORAGE_URL_FORMS}.`);
}

/** The back end a spec names (an S3 bucket is checked to answer before it is used). */
export async function openStorage(spec: StorageSpec, s3: S3Settings): Promise<FileStorage> {
  if (spec.kind === 'local') return new LocalDiskStorage(spec.root);
  const storage = new S3Storage({ ...s3, bucket: spec.bucket, prefix: spec.prefix });
  try {
    await storage.check();
  } catch (err) {
    storage.close();
    throw err;
  }
  return storage;
}
