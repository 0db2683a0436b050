import type { DomainEvents } from '../../platform/events';
import type { PageRow } from './messages.repo';

interface Deps {
  /** A count that moves with every commit by another connection to the database (db/database.ts). */
  commitsElsewhere: () => number;
  /** How many pages are kept at the most. */
  max?: number;
}

/**
 * The newest history pages as read, kept until the stored messages change (SQLite, where one process sees every
 * write to the file). A room opened is its newest page, the hottest read there is; the rows are what every reader
 * shares (what is theirs, the ticks and `me`, is drawn from them afresh). The messages module says when its
 * messages changed (`dropPagesOnChange`); commits by another connection to the file (an operator's command, a
 * second process) move the database's count of them. Any change drops every page at once: simple and never
 * stale, at the cost of hits while messages are being written.
 */
export class NewestPages {
  private readonly pages = new Map<string, { stamp: string; rows: readonly PageRow[] }>();
  private version = 0;

  constructor(private readonly deps: Deps) {}

  /** The stored messages changed (told after the commit): every page is read again. */
  changed(): void {
    this.version++;
    this.pages.clear();
  }

  /** The page under `key`, read by `read` unless kept since the last change. */
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
      if (this.pages.size > (this.deps.max ?? 256))
        this.pages.delete(this.pages.keys().next().value as string);
    } else this.pages.delete(key);
    return rows;
  }

  private stamp(): string {
    return `${this.version}:${this.deps.commitsElsewhere()}`;
  }
}

/**
 * Drops the pages after each change to stored messages. Every writer of the messages table publishes a domain
 * event once its transaction committed (the same events that reach the sockets): a new message, an edit, a
 * deletion, a reaction; a chat's and an account's deletion take their messages by the foreign keys. A new way of
 * changing messages must publish an event here too (test/messages/history-after-change.test.ts).
 */
export function dropPagesOnChange(pages: NewestPages, events: DomainEvents): void {
  const changed = () => pages.changed();
  events.on('message.published', ({ resend }) => {
    // A resend stored nothing.
    if (!resend) changed();
  });
  events.on('message.updated', changed);
  events.on('message.deleted', changed);
  events.on('reactions.updated', changed);
  events.on('chat.deleted', changed);
  events.on('account.deleted', changed);
}
