import type { MessagesStamp } from '../../db/database';
import type { PageRow } from './messages.repo';

/**
 * The newest history pages as read, kept while the stored messages are known not to have changed (SQLite, whose
 * one process sees every write: db/database.ts's stamp). A room opened is its newest page, the hottest read there
 * is; the rows are what every reader shares (what is theirs, the ticks and `me`, is drawn from them afresh).
 * Any change to the messages drops every page at once: simple and never stale, at the cost of hits while
 * messages are being written.
 */
export class NewestPages {
  private readonly pages = new Map<string, { stamp: string; rows: readonly PageRow[] }>();

  constructor(
    private readonly stamp: MessagesStamp,
    private readonly max = 256,
  ) {}

  /** The page under `key`, read by `read` unless kept under the current stamp. */
  async get(key: string, read: () => Promise<PageRow[]>): Promise<PageRow[]> {
    const stamp = this.stamp();
    const kept = this.pages.get(key);
    if (kept?.stamp === stamp) {
      // Most recently used last: the first is the one to let go.
      this.pages.delete(key);
      this.pages.set(key, kept);
      return [...kept.rows];
    }
    const rows = await read();
    // Kept only if nothing changed while it was read (a write could have landed before the read ran).
    if (this.stamp() === stamp) {
      this.pages.delete(key);
      // Shared by every reader that follows: frozen, so that no reader's view can change it for the next.
      this.pages.set(key, { stamp, rows: Object.freeze(rows.map((row) => Object.freeze({ ...row }))) });
      if (this.pages.size > this.max) this.pages.delete(this.pages.keys().next().value as string);
    } else this.pages.delete(key);
    return rows;
  }
}
