import type { MessageRow } from './message-rows';

// What 'Jump to latest N' counts: the messages below the view that the reader has not seen yet. Older history
// below the view (after scrolling up) is not new; neither is one's own message, nor one from someone the reader
// blocked (folded away, and never counted unread).

/** The newest message id among the rows down to `lastIndex` (the last row in view): what the reader has seen. */
export function seenThrough(rows: MessageRow[], lastIndex: number): number {
  for (let i = Math.min(lastIndex, rows.length - 1); i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'message' && row.message.id > 0) return row.message.id;
  }
  return 0;
}

/** The messages after row `lastIndex` newer than `seenUpTo`, from others the reader has not blocked. */
export function newBelow(
  rows: MessageRow[],
  lastIndex: number,
  seenUpTo: number,
  meId: number,
  hidden: ReadonlySet<number>,
): number {
  let count = 0;
  for (let i = lastIndex + 1; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.kind !== 'message') continue;
    const { id, sender, kind } = row.message;
    if (id > seenUpTo && kind === 'user' && sender !== meId && (sender === null || !hidden.has(sender)))
      count++;
  }
  return count;
}
