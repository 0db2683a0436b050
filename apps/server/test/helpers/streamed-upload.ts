import { randomBytes } from 'node:crypto';
import http from 'node:http';

// Big multipart uploads made on the fly, as a browser sends them, without the test holding them in memory:
// each file is a real head (a PDF's, a PNG's) followed by filler up to its size, written with backpressure.
// `cutAfter` drops the connection once that many body bytes are written (a client that went away mid-upload).

export interface StreamedFile {
  filename: string;
  /** The file's first bytes (its magic numbers); filler follows up to `size`. */
  head: Buffer;
  size: number;
}

export interface StreamedUpload {
  baseUrl: string;
  path: string;
  token: string;
  files: StreamedFile[];
  /** Destroys the connection after this many body bytes (and a moment for the server to read them). */
  cutAfter?: number;
  /** Runs just before the cut (to look at what the server holds of the upload at that moment). */
  beforeCut?: () => Promise<void>;
}

export type UploadOutcome = { status: number; text: string } | 'cut';

const FILLER = randomBytes(1024 * 1024);

function partsOf(files: StreamedFile[], boundary: string) {
  const heads = files.map((f) =>
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
  );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = files.reduce((sum, f, i) => sum + (heads[i]?.length ?? 0) + f.size + 2, tail.length);
  return { heads, tail, length };
}

/** Body chunks of at most 1 MiB, in order. */
function* bodyOf(files: StreamedFile[], boundary: string): Generator<Buffer> {
  const { heads, tail } = partsOf(files, boundary);
  for (const [i, file] of files.entries()) {
    yield heads[i] as Buffer;
    yield file.head;
    let left = file.size - file.head.length;
    while (left > 0) {
      const chunk = FILLER.subarray(0, Math.min(left, FILLER.length));
      left -= chunk.length;
      yield chunk;
    }
    yield Buffer.from('\r\n');
  }
  yield tail;
}

export function streamUpload(upload: StreamedUpload): Promise<UploadOutcome> {
  const boundary = `----parley${randomBytes(8).toString('hex')}`;
  const { length } = partsOf(upload.files, boundary);
  const url = new URL(upload.path, upload.baseUrl);
  return new Promise((resolve, reject) => {
    let cut = false;
    const req = http.request(url, {
      method: 'POST',
      agent: false,
      headers: {
        authorization: `Bearer ${upload.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(length),
        connection: 'close',
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', (err) => (cut ? resolve('cut') : reject(err)));
    (async () => {
      let written = 0;
      for (const chunk of bodyOf(upload.files, boundary)) {
        if (upload.cutAfter !== undefined && written + chunk.length > upload.cutAfter) {
          req.write(chunk.subarray(0, upload.cutAfter - written));
          // Let the server take what was sent, then go away without finishing the body.
          await new Promise((r) => setTimeout(r, 300));
          await upload.beforeCut?.();
          cut = true;
          req.destroy();
          resolve('cut');
          return;
        }
        written += chunk.length;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      req.end();
    })().catch(reject);
  });
}
