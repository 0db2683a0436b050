import { createHash, randomBytes } from 'node:crypto';
import type { LinkPreview } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '../../db/database';
import { anyAddress, type GuardedFetchOptions, guardedFetch } from '../../platform/guarded-fetch';
import { sharp } from '../../platform/images';
import { PeriodicTask } from '../../platform/periodic';
import { isPublicAddress } from '../../platform/public-address';
import type { FileStorage } from '../../platform/storage';
import * as repo from './link-previews.repo';
import { decodePage, pageMeta } from './page-meta';

// Link previews: a page's title, description and picture, fetched under the guard of platform/guarded-fetch,
// kept a day per address, the picture thumbnailed and served from Parley's own store.

const CACHE_MS = 24 * 3600_000;
/** A page that gave nothing is asked again sooner: it may have been down for a moment. */
const MISS_CACHE_MS = 3600_000;
const FETCH_TIMEOUT_MS = 5000;
const MAX_BYTES = 1024 * 1024;
/**
 * Fetches under way at once in this process, started a second (with a burst after a quiet spell), and waiting:
 * past that a link simply gets no preview. A preview costs 10–30 ms of CPU (most of it the picture's thumbnail),
 * so five a second is about a tenth of a core; a waiting one waits ten seconds at most.
 */
const CONCURRENCY = 4;
const STARTS_PER_SECOND = 5;
const BURST = 10;
const MAX_WAITING = 50;
const IMAGE_WIDTH = 480;
const IMAGE_HEIGHT = 480;
/** A picture of more pixels is not decoded (1 MiB of PNG can hold a flat field of many megapixels). */
const IMAGE_MAX_PIXELS = 40_000_000;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const SWEEP_INTERVAL_MS = 3600_000;
const KEY_PREFIX = 'link-previews/';
/** The served name of a picture: 128 random bits, so its address is known only to those shown it. */
const IMAGE_NAME = /^[0-9a-f]{32}\.webp$/;

export const PREVIEW_USER_AGENT = 'Mozilla/5.0 (compatible; ParleyLinkPreview/1.0)';

interface Deps {
  db: Db;
  storage: FileStorage;
  log: FastifyBaseLogger;
  config: { linkPreviews: boolean; previewAllowPrivateHosts: boolean };
}

/** A preview as stored: the row it came from (which keeps its picture while named), null when the page gave none. */
export interface FoundPreview {
  id: number;
  preview: LinkPreview | null;
}

export const urlHash = (url: string) => createHash('sha256').update(url).digest('hex');

export class LinkPreviewsService {
  private running = 0;
  private readonly queue: ((go: boolean) => void)[] = [];
  private readonly pace = new Pace(STARTS_PER_SECOND, BURST);
  private timer: NodeJS.Timeout | null = null;
  private stopping = false;
  private readonly inFlight = new Map<string, Promise<FoundPreview | null>>();
  private sweep: PeriodicTask | null = null;

  constructor(private readonly deps: Deps) {}

  get enabled(): boolean {
    return this.deps.config.linkPreviews;
  }

  /** Whether a link now would be looked at: not while the fetches' queue is full (a flood of new links). */
  get hasRoom(): boolean {
    return this.queue.length < MAX_WAITING;
  }

  private fetchOptions(accept: string, accepts: (type: string) => boolean): GuardedFetchOptions {
    return {
      allowAddress: this.deps.config.previewAllowPrivateHosts ? anyAddress : isPublicAddress,
      anyPort: this.deps.config.previewAllowPrivateHosts,
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_BYTES,
      maxRedirects: 3,
      accept,
      accepts,
      userAgent: PREVIEW_USER_AGENT,
    };
  }

  /**
   * The preview of an address: the day's cached one, else fetched now (one fetch per address at a time in this
   * process). null when there is no room to fetch it now or the feature is off.
   */
  async previewOf(url: string): Promise<FoundPreview | null> {
    if (!this.enabled) return null;
    const hash = urlHash(url);
    const cached = await this.cached(hash);
    if (cached) return cached;
    let work = this.inFlight.get(hash);
    if (!work) {
      work = this.fetchAndStore(url, hash).finally(() => this.inFlight.delete(hash));
      this.inFlight.set(hash, work);
    }
    return work;
  }

  private async cached(hash: string): Promise<FoundPreview | null> {
    const now = Date.now();
    const row = await repo.freshPreview(this.deps.db, hash, new Date(now - CACHE_MS).toISOString());
    if (!row) return null;
    // A miss counts for an hour only.
    if (row.preview === null)
      return row.fetched_at >= new Date(now - MISS_CACHE_MS).toISOString()
        ? { id: row.id, preview: null }
        : null;
    return { id: row.id, preview: JSON.parse(row.preview) as LinkPreview };
  }

  private async fetchAndStore(url: string, hash: string): Promise<FoundPreview | null> {
    if (!(await this.slot())) return null;
    try {
      const { preview, imageKey } = await this.fetchPreview(url);
      const id = await repo.insertPreview(this.deps.db, {
        url_hash: hash,
        fetched_at: new Date().toISOString(),
        preview: preview && JSON.stringify(preview),
        image_key: imageKey,
      });
      return { id, preview };
    } finally {
      this.running--;
      this.pump();
    }
  }

  /**
   * A turn to fetch: at most CONCURRENCY at once and STARTS_PER_SECOND a second (a burst of BURST after a quiet
   * spell), so a flood of new links costs a bounded share of the machine and never the delivery of messages.
   * false when MAX_WAITING already wait, or the service is stopping: that link gets no preview.
   */
  private slot(): Promise<boolean> {
    if (this.stopping || this.queue.length >= MAX_WAITING) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.pump();
    });
  }

  private pump(): void {
    while (this.queue.length > 0 && this.running < CONCURRENCY) {
      const wait = this.pace.take();
      if (wait > 0) {
        this.timer ??= setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait).unref();
        return;
      }
      this.running++;
      this.queue.shift()?.(true);
    }
  }

  /** The page's preview, its picture stored; nothing (and a debug line saying why) when the guard or page says no. */
  private async fetchPreview(url: string): Promise<{ preview: LinkPreview | null; imageKey: string | null }> {
    let page: Awaited<ReturnType<typeof guardedFetch>>;
    try {
      page = await guardedFetch(
        url,
        this.fetchOptions('text/html', (type) => type === 'text/html'),
      );
    } catch (err) {
      this.deps.log.debug({ reason: (err as Error).message }, 'no link preview');
      return { preview: null, imageKey: null };
    }
    const meta = pageMeta(decodePage(page.body, page.charset), page.url);
    if (!meta.title && !meta.description) return { preview: null, imageKey: null };
    const image = meta.image ? await this.storeImage(meta.image) : null;
    return {
      preview: {
        url,
        title: meta.title,
        description: meta.description,
        site_name: meta.siteName ?? page.url.hostname.replace(/^www\./, ''),
        image: image && { url: image.url, width: image.width, height: image.height },
      },
      imageKey: image?.key ?? null,
    };
  }

  /** The page's picture, fetched under the same guard, checked by its bytes and stored as a small WebP. */
  private async storeImage(address: string) {
    try {
      const { body } = await guardedFetch(
        address,
        this.fetchOptions(
          'image/*',
          (type) => type.startsWith('image/') || type === 'application/octet-stream',
        ),
      );
      const kind = await fileTypeFromBuffer(body);
      if (!kind || !IMAGE_TYPES.has(kind.mime)) return null;
      const { data, info } = await sharp(body, { animated: false, limitInputPixels: IMAGE_MAX_PIXELS })
        .rotate()
        .resize(IMAGE_WIDTH, IMAGE_HEIGHT, { fit: 'inside', withoutEnlargement: true })
        // The fastest effort: a tenth of the picture's cost at the default, and the card shows it small.
        .webp({ quality: 75, effort: 0 })
        .toBuffer({ resolveWithObject: true });
      const name = `${randomBytes(16).toString('hex')}.webp`;
      await this.deps.storage.put(KEY_PREFIX + name, data);
      return {
        key: KEY_PREFIX + name,
        url: `/api/link-previews/${name}`,
        width: info.width,
        height: info.height,
      };
    } catch (err) {
      this.deps.log.debug({ reason: (err as Error).message }, 'no link preview picture');
      return null;
    }
  }

  /** A stored picture by its served name; null for a name that is not one or whose picture is gone. */
  async image(name: string) {
    if (!IMAGE_NAME.test(name)) return null;
    return this.deps.storage.get(KEY_PREFIX + name);
  }

  /** Forgets previews older than a day that no message shows any more, and their pictures. */
  async sweepUnnamed(): Promise<number> {
    // An hour past the day: a preview taken from the cache just before it expired is named by its message by then.
    const before = new Date(Date.now() - CACHE_MS - SWEEP_INTERVAL_MS).toISOString();
    let removed = 0;
    for (;;) {
      const rows = await repo.unnamedBefore(this.deps.db, before, 500);
      if (rows.length === 0) return removed;
      await repo.deletePreviews(
        this.deps.db,
        rows.map((r) => r.id),
      );
      for (const r of rows) if (r.image_key) await this.deps.storage.delete(r.image_key);
      removed += rows.length;
    }
  }

  startSweeping(log: FastifyBaseLogger): this {
    this.sweep ??= new PeriodicTask(() => this.sweepUnnamed(), SWEEP_INTERVAL_MS, log, 'link preview sweep');
    this.sweep.start();
    return this;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    for (const waiting of this.queue.splice(0)) waiting(false);
    await this.sweep?.stop();
    await Promise.allSettled([...this.inFlight.values()]);
  }
}

/** A token bucket: `rate` starts a second, at most `burst` saved up. */
export class Pace {
  private tokens: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private at = performance.now(),
  ) {
    this.tokens = burst;
  }

  /** 0 when a start may go now (and takes it), else the milliseconds until one may. */
  take(now = performance.now()): number {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) / 1000) * this.rate);
    this.at = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - this.tokens) * 1000) / this.rate);
  }
}
