import type { Generated } from 'kysely';

// The link-previews module's table (migration 0022-link-previews): fetched pages' previews, one row per fetch.
export interface LinkPreviewsTable {
  id: Generated<number>;
  /** SHA-256 of the address asked for, hex: the cache's key (addresses can be long). */
  url_hash: string;
  fetched_at: string;
  /** The LinkPreview as JSON; null when the page gave none (that is cached too). */
  preview: string | null;
  /** The stored thumbnail of its picture. */
  image_key: string | null;
}

export interface LinkPreviewsTables {
  link_previews: LinkPreviewsTable;
}
