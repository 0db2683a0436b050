import { KeptReads } from '../../db/kept-reads';
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
 * write to the file); threads' first pages too (keys `thread:…`). A room opened is its newest page and a thread
 * opened its first, the hottest reads there are; the rows are what every reader shares (what is theirs, the
 * ticks and `me`, is drawn from them afresh). The messages module says when its messages changed
 * (`dropPagesOnChange`); commits by another connection to the file (an operator's command, a second process)
 * move the database's count of them. Any change drops every page at once: simple and never stale, at the cost
 * of hits while messages are being written.
 */
export class NewestPages {
  private version = 0;
  private readonly kept: KeptReads<PageRow>;

  constructor(private readonly deps: Deps) {
    this.kept = new KeptReads(() => `${this.version}:${this.deps.commitsElsewhere()}`, deps.max);
  }

  /** The stored messages changed (told after the commit): every page is read again. */
  changed(): void {
    this.version++;
    this.kept.clear();
  }

  /** The page under `key`, read by `read` unless kept since the last change. */
  get(key: string, read: () => Promise<PageRow[]>): Promise<PageRow[]> {
    return this.kept.get(key, read);
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
