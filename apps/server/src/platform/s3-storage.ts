import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  type UploadPartCommandOutput,
} from '@aws-sdk/client-s3';
import {
  type ByteRange,
  type FileStorage,
  InvalidStorageKeyError,
  isSafeKey,
  RangeNotSatisfiableError,
  resolveRange,
  type StoredEntry,
  type StoredFile,
  StreamSizeError,
} from './storage';

// Files in a bucket of any S3-compatible object store (AWS S3, MinIO, Ceph, Garage, R2, …) under an optional
// prefix. Parley streams them to clients itself (the signed URL and header checks stay as they are), so the
// bucket can stay private and unreachable from browsers.

export interface S3Options {
  bucket: string;
  /** Keys are stored as `<prefix>/<key>`; empty for the bucket's root. */
  prefix: string;
  /** The store's address (MinIO: http://minio:9000); AWS's own when absent. */
  endpoint: string | null;
  region: string;
  /** Path-style addresses (`endpoint/bucket/key`), which most self-hosted stores need. */
  forcePathStyle: boolean;
  /** Explicit keys; the SDK's usual chain (instance roles, ~/.aws) when absent. */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
}

/** Parts of a streamed upload: S3 wants at least 5 MiB for every part but the last, and at most 10,000 parts. */
const PART_SIZE = 8 * 1024 * 1024;

/** Reads a stream that must hold exactly `size` bytes in consecutive slices (the parts of an upload). */
class ExactReader {
  private readonly source: AsyncIterator<Buffer>;
  private carry: Buffer | null = null;
  private seen = 0;
  failure: Error | null = null;

  constructor(
    stream: Readable,
    private readonly size: number,
  ) {
    this.source = stream[Symbol.asyncIterator]();
  }

  private async next(): Promise<Buffer | null> {
    if (this.carry) {
      const chunk = this.carry;
      this.carry = null;
      return chunk;
    }
    try {
      const { value, done } = await this.source.next();
      if (done) return null;
      this.seen += value.length;
      return value;
    } catch (err) {
      throw this.fail(err as Error);
    }
  }

  /** Remembers the first failure (the one to report) and returns it. */
  private fail(err: Error): Error {
    this.failure ??= err;
    return this.failure;
  }

  /** The next `length` bytes; fails with StreamSizeError when the stream ends first. */
  async *take(length: number): AsyncGenerator<Buffer> {
    let left = length;
    while (left > 0) {
      const chunk = await this.next();
      if (!chunk) throw this.fail(new StreamSizeError(this.size, this.seen));
      if (chunk.length > left) {
        this.carry = chunk.subarray(left);
        yield chunk.subarray(0, left);
        return;
      }
      left -= chunk.length;
      yield chunk;
    }
  }

  /** Checks that nothing is left past the announced size. */
  async end(): Promise<void> {
    const chunk = await this.next();
    if (chunk && chunk.length > 0) throw this.fail(new StreamSizeError(this.size, this.seen));
  }
}

const statusOf = (err: unknown) =>
  err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
const isNotFound = (err: unknown) => statusOf(err) === 404 || (err as { name?: string }).name === 'NoSuchKey';

export class S3Storage implements FileStorage {
  readonly description: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3Options) {
    this.bucket = options.bucket;
    this.prefix = options.prefix.replace(/^\/+|\/+$/g, '');
    this.description = `s3://${this.bucket}${this.prefix ? `/${this.prefix}` : ''}${options.endpoint ? ` at ${options.endpoint}` : ''}`;
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // Checksums only where S3 requires them: the newer default (a CRC trailer on every upload, aws-chunked
      // encoding) is not understood by many S3-compatible stores, and TLS already guards the bytes in transit.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private objectKey(key: string): string {
    if (!isSafeKey(key)) throw new InvalidStorageKeyError(key);
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  /** Fails with a clear message when the bucket cannot be reached (a wrong endpoint, name or key): at start. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (err) {
      const status = statusOf(err);
      const why = status ? `HTTP ${status}` : (err as Error).message;
      throw new Error(
        `The file store ${this.description} cannot be reached (${why}): check STORAGE_URL and S3_*.`,
      );
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.length,
      }),
    );
  }

  /**
   * A multipart upload, each part streamed with its known length (nothing is buffered beyond a socket's worth).
   * The object appears only when the upload completes; a stream that fails or holds the wrong number of bytes
   * aborts it, and nothing is left — on every compatible store, including those that would keep the first
   * bytes of a plain PUT cut short.
   */
  async putStream(key: string, stream: Readable, size: number): Promise<void> {
    const Key = this.objectKey(key);
    const created = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key }));
    const UploadId = created.UploadId;
    if (!UploadId) throw new Error(`${this.description}: no upload id for ${key}`);
    const reader = new ExactReader(stream, size);
    try {
      const parts: { ETag?: string; PartNumber: number }[] = [];
      const count = Math.max(1, Math.ceil(size / PART_SIZE));
      for (let n = 1; n <= count; n++) {
        const length = n < count ? PART_SIZE : size - PART_SIZE * (count - 1);
        // The SDK pipes a body without watching it for errors: a failing source aborts the request instead.
        const abort = new AbortController();
        const body = Readable.from(reader.take(length)).on('error', () => abort.abort());
        let res: UploadPartCommandOutput;
        try {
          res = await this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key,
              UploadId,
              PartNumber: n,
              Body: body,
              ContentLength: length,
            }),
            { abortSignal: abort.signal },
          );
        } catch (err) {
          throw reader.failure ?? err;
        }
        parts.push({ ETag: res.ETag, PartNumber: n });
      }
      await reader.end();
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key,
          UploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (err) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))
        .catch(() => {});
      stream.destroy();
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<StoredFile | null> {
    if (!isSafeKey(key)) return null;
    // S3 answers suffix ranges itself, but not every compatible store does: ask for the size first.
    let wanted = range;
    if (range && 'suffix' in range) {
      const total = await this.size(key);
      if (total === null) return null;
      wanted = resolveRange(range, total);
    }
    const header = wanted && 'start' in wanted ? `bytes=${wanted.start}-${wanted.end ?? ''}` : undefined;
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Range: header }),
      );
      const stream = res.Body as Readable;
      const size = res.ContentLength ?? 0;
      const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(res.ContentRange ?? '');
      if (match)
        return { stream, size, start: Number(match[1]), end: Number(match[2]), total: Number(match[3]) };
      return { stream, size, start: 0, end: size - 1, total: size };
    } catch (err) {
      if (isNotFound(err)) return null;
      if (statusOf(err) === 416) {
        const total = await this.size(key);
        if (total === null) return null;
        throw new RangeNotSatisfiableError(total);
      }
      throw err;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    const file = await this.get(key);
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of file.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async size(key: string): Promise<number | null> {
    if (!isSafeKey(key)) return null;
    try {
      const res = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return res.ContentLength ?? 0;
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async *list(prefix = ''): AsyncIterable<StoredEntry> {
    const root = this.prefix ? `${this.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: root + prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(root.length);
        // Objects that are not ours (keys Parley could not have made) are left alone.
        if (key && isSafeKey(key)) yield { key, size: object.Size ?? 0 };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  close(): void {
    this.client.destroy();
  }
}
