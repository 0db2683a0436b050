import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { isPublicAddress, lookupAllowing, publicLookup } from './public-address';

// An outgoing request made on a stranger's word (a link in a message): only public addresses, every redirect
// checked again, a deadline for the whole of it and a ceiling on what is read. Nothing is sent but the request
// line and a few fixed headers: no cookies, no credentials, no referrer.

export interface GuardedFetchOptions {
  /** Which IP addresses may be connected to: public ones (isPublicAddress) unless a test says otherwise. */
  allowAddress: (address: string) => boolean;
  /** Tests only: any port, not just 80 and 443. */
  anyPort: boolean;
  /** The whole fetch, redirects and reading included. */
  timeoutMs: number;
  /** The most bytes read, after decompression; a body larger than this is a failure. */
  maxBytes: number;
  maxRedirects: number;
  /** Whether the final answer's media type (lower case, without parameters) is worth reading. */
  accepts: (mediaType: string) => boolean;
  /** Sent as Accept. */
  accept: string;
  userAgent: string;
}

export interface GuardedResponse {
  /** Where the body came from, after redirects. */
  url: URL;
  mediaType: string;
  /** The `charset` of Content-Type, when it names one. */
  charset: string | null;
  body: Buffer;
}

/** Why a fetch gave nothing; `reason` is for a log line, never for a client. */
export class GuardedFetchError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'GuardedFetchError';
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** Loopback and private addresses too (tests only: PREVIEW_ALLOW_PRIVATE_HOSTS and the like). */
export const anyAddress = () => true;

/**
 * Whether a URL may be asked for before any connection: http(s) without credentials, on the scheme's usual port
 * (80 or 443), and an IP written in it must be allowed (a name is checked as it resolves, see lookupAllowing).
 */
export function mayRequest(
  url: URL,
  options: Pick<GuardedFetchOptions, 'allowAddress' | 'anyPort'>,
): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  if (!options.anyPort && url.port && url.port !== '80' && url.port !== '443') return false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return !isIP(host) || options.allowAddress(host);
}

/** GETs `address` under the guard; a GuardedFetchError says why nothing came of it. */
export async function guardedFetch(address: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new GuardedFetchError('not a URL');
  }
  const deadline = AbortSignal.timeout(options.timeoutMs);
  for (let hop = 0; ; hop++) {
    if (!mayRequest(url, options)) throw new GuardedFetchError('address refused');
    const res = await get(url, options, deadline);
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode ?? 0) && location) {
      res.destroy();
      if (hop >= options.maxRedirects) throw new GuardedFetchError('too many redirects');
      try {
        url = new URL(location, url);
      } catch {
        throw new GuardedFetchError('bad redirect');
      }
      continue;
    }
    if (res.statusCode !== 200) {
      res.destroy();
      throw new GuardedFetchError(`status ${res.statusCode}`);
    }
    const [type = '', ...params] = (res.headers['content-type'] ?? '').split(';');
    const mediaType = type.trim().toLowerCase();
    if (!options.accepts(mediaType)) {
      res.destroy();
      throw new GuardedFetchError(`type ${mediaType || 'none'}`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      res.destroy();
      throw new GuardedFetchError('too large');
    }
    const charset = params
      .map((p) => /^\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(p)?.[1])
      .find((c) => c !== undefined);
    const body = await readAtMost(decoded(res), options.maxBytes, deadline);
    return { url, mediaType, charset: charset ?? null, body };
  }
}

/** What a guarded POST needs: where it may connect, how long it may take, how much of the answer is read. */
export interface GuardedPostOptions
  extends Pick<GuardedFetchOptions, 'allowAddress' | 'timeoutMs' | 'maxBytes' | 'userAgent'> {
  /** Tests only: http as well as https. */
  httpToo: boolean;
  headers: Record<string, string>;
}

export interface GuardedPostResponse {
  status: number;
  mediaType: string;
  body: Buffer;
}

/**
 * POSTs a JSON body to an address someone gave (a bot's events URL): https to allowed addresses only (any port,
 * like a Web Push service), checked as written and as resolved; a redirect is an answer, never followed, since a
 * POST must not be carried somewhere else. The answer's body is read up to maxBytes, within the deadline.
 */
export async function guardedPost(
  address: string,
  json: string,
  options: GuardedPostOptions,
): Promise<GuardedPostResponse> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new GuardedFetchError('not a URL');
  }
  if (url.protocol !== 'https:' && !(options.httpToo && url.protocol === 'http:'))
    throw new GuardedFetchError('address refused');
  if (!mayRequest(url, { allowAddress: options.allowAddress, anyPort: true }))
    throw new GuardedFetchError('address refused');
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const res = await request(
    url,
    'POST',
    {
      'User-Agent': options.userAgent,
      'Content-Type': 'application/json',
      'Content-Length': String(Buffer.byteLength(json)),
      ...options.headers,
    },
    options.allowAddress,
    deadline,
    json,
  );
  const mediaType = (res.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const body = await readAtMost(res, options.maxBytes, deadline);
  return { status: res.statusCode ?? 0, mediaType, body };
}

/** One GET of a page or picture. */
const get = (url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<IncomingMessage> =>
  request(
    url,
    'GET',
    { 'User-Agent': options.userAgent, Accept: options.accept, 'Accept-Encoding': 'gzip, deflate, br' },
    options.allowAddress,
    signal,
  );

/** One request; the connection resolves the host through publicLookup, so what it reaches is what was checked. */
function request(
  url: URL,
  method: 'GET' | 'POST',
  headers: Record<string, string>,
  allowAddress: (address: string) => boolean,
  signal: AbortSignal,
  body?: string,
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      {
        method,
        port: url.port || DEFAULT_PORT[url.protocol],
        headers,
        signal,
        lookup: allowAddress === isPublicAddress ? publicLookup : lookupAllowing(allowAddress),
      },
      resolve,
    );
    req.on('error', (err) =>
      reject(
        new GuardedFetchError(
          signal.aborted
            ? 'timed out'
            : (err as NodeJS.ErrnoException).code === 'ENONPUBLIC'
              ? 'address refused'
              : 'unreachable',
        ),
      ),
    );
    req.end(body);
  });
}

/** The body as sent, unpacked when it came compressed (the ceiling counts the unpacked bytes). */
function decoded(res: IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const unpack =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null;
  if (!unpack) return res;
  res.on('error', (err) => unpack.destroy(err));
  return res.pipe(unpack);
}

async function readAtMost(stream: Readable, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const abort = () => stream.destroy(new GuardedFetchError('timed out'));
  if (signal.aborted) abort();
  signal.addEventListener('abort', abort, { once: true });
  try {
    for await (const chunk of stream) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw new GuardedFetchError('too large');
      chunks.push(chunk as Buffer);
    }
  } catch (err) {
    stream.destroy();
    throw err instanceof GuardedFetchError
      ? err
      : new GuardedFetchError(signal.aborted ? 'timed out' : 'read failed');
  } finally {
    signal.removeEventListener('abort', abort);
  }
  return Buffer.concat(chunks);
}
