import { createHash, randomBytes } from 'node:crypto';
import type { LinkPreview } from '@parley/protocol';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import type { Db } from '../../db/database';
import { anyAddress, type GuardedFetchOptions, guardedFetch } from '../../platform/guarded-fetch';
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
/** Fetches under way at once in this process, and waiting: past that a link simply gets no preview. */
const CONCURRENCY = 4;
const MAX_WAITING = 200;
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
  private readonly waiting: (() => void)[] = [];
  private readonly inFlight = new Map<string, Promise<FoundPreview | null>>();
  private sweep: PeriodicTask | null = null;

  constructor(private readonly deps: Deps) {}

  get enabled(): boolean {
    return this.deps.config.linkPreviews;
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
    if (row.preview === null) {
      // A miss counts for an hour only.
      const recent = await repo.freshPreview(this.deps.db, hash, new Date(now - MISS_CACHE_MS).toISOString());
      if (!recent) return null;
    }
    return { id: row.id, preview: row.preview === null ? null : (JSON.parse(row.preview) as LinkPreview) };
  }

  private async fetchAndStore(url: string, hash: string): Promise<FoundPreview | null> {
    if (this.running >= CONCURRENCY) {
      if (this.waiting.length >= MAX_WAITING) return null;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.running++;
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
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
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
        .webp({ quality: 75 })
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
    await this.sweep?.stop();
    await Promise.allSettled([...this.inFlight.values()]);
  }
}
