import type { Message } from '@parley/protocol';

// What a room fetches when its socket (re)opens. The server keeps no changed-since cursor: a history
// page is read as the history is now. So the stretch already on screen is read again — for the edits,
// deletions and reactions made while the client was away — along with everything that came after it. The
// list is one unbroken stretch (older pages and ?around= pages join up with it), so id bounds describe it.

/** One history request: `before` or `after` an id, at most `limit` messages, ascending. */
export type PageFetch = (page: { before?: number; after?: number; limit: number }) => Promise<Message[]>;

/** The server's largest page. */
export const CATCH_UP_LIMIT = 100;
/** At most this many requests each way (5,000 messages): a longer walk stops, keeping what came. */
const MAX_PAGES = 50;

/** Everything after `afterId`, page by page; with `untilId`, it stops once that message has come. */
export async function pagesAfter(
  fetchPage: PageFetch,
  afterId: number,
  untilId = Number.POSITIVE_INFINITY,
): Promise<Message[]> {
  const out: Message[] = [];
  let after = afterId;
  for (let i = 0; i < MAX_PAGES && after < untilId; i++) {
    const page = await fetchPage({ after, limit: CATCH_UP_LIMIT });
    out.push(...page);
    if (page.length < CATCH_UP_LIMIT) break;
    after = page[page.length - 1]!.id;
  }
  return out;
}

/**
 * The messages from `firstId` to `lastId` as they stand now, read newest first: were the walk cut short, the
 * part left stale is the oldest, furthest from what the reader looks at.
 */
export async function pagesBetween(
  fetchPage: PageFetch,
  firstId: number,
  lastId: number,
): Promise<Message[]> {
  const pages: Message[][] = [];
  let before = lastId + 1;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page = await fetchPage({ before, limit: CATCH_UP_LIMIT });
    pages.push(page.filter((m) => m.id >= firstId));
    if (page.length < CATCH_UP_LIMIT || page[0]!.id <= firstId) break;
    before = page[0]!.id;
  }
  return pages.reverse().flat();
}

/** The loaded stretch again and everything newer: what a room merges after its socket (re)opens. */
export async function catchUpMessages(fetchPage: PageFetch, loaded: Message[]): Promise<Message[]> {
  if (loaded.length === 0) return [];
  const firstId = loaded[0]!.id;
  const lastId = loaded[loaded.length - 1]!.id;
  const [again, missed] = await Promise.all([
    pagesBetween(fetchPage, firstId, lastId),
    pagesAfter(fetchPage, lastId),
  ]);
  return again.concat(missed);
}
