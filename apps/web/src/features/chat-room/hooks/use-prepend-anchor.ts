import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useRef } from 'react';
import type { MessageRow } from '../lib/message-rows';

interface Anchor {
  key: string;
  index: number;
  /** Where the row starts relative to the top edge of the view (negative: partly scrolled past). */
  delta: number;
}

/**
 * Keeps the message at the top of the view exactly where it is when older history is prepended.
 *
 * The new offset is handed to the virtualizer during render, before it picks the rows to draw: it then draws
 * and measures the rows around the anchor (not the new rows at the very top, whose measured heights it would
 * not correct for), and the scroll element is moved to match before the browser paints. Call the returned
 * function on every scroll so the anchor follows the reader.
 */
export function usePrependAnchor(
  virtualizer: Virtualizer<HTMLElement, Element>,
  rows: MessageRow[],
  scrollRef: RefObject<HTMLElement | null>,
): () => void {
  const anchor = useRef<Anchor | null>(null);
  const restoring = useRef(false);
  /** Whether the list has had its first frame. */
  const framed = useRef(false);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const held = anchor.current;
  if (held && rows[held.index]?.key !== held.key) {
    const index = rows.findIndex((row) => row.key === held.key);
    if (index > held.index) {
      virtualizer.getOffsetForIndex(index, 'start'); // brings the measurements up to the new rows
      const start = virtualizer.measurementsCache[index]?.start;
      if (start !== undefined) {
        const target = Math.max(0, start - held.delta);
        virtualizer.scrollOffset = target;
        restoring.current = true;
        anchor.current = { ...held, index };
      }
    }
  }

  const record = useRef(() => {
    const el = scrollRef.current;
    const list = rowsRef.current;
    const first = el ? virtualizer.getVirtualItemForOffset(el.scrollTop) : undefined;
    anchor.current = null;
    if (!el || !first) return;
    const cache = virtualizer.measurementsCache;
    for (let i = first.index; i < list.length && cache[i]; i++) {
      if (list[i]!.kind === 'message' && cache[i]!.end > el.scrollTop) {
        anchor.current = { key: list[i]!.key, index: i, delta: cache[i]!.start - el.scrollTop };
        return;
      }
    }
  }).current;

  useLayoutEffect(() => {
    const el = scrollRef.current;
    // The virtualizer's offset, not the target: rows measured while this commit attached them have already
    // moved it by the difference between their estimated and real heights.
    if (el && restoring.current && virtualizer.scrollOffset !== null) el.scrollTop = virtualizer.scrollOffset;
    restoring.current = false;
    if (framed.current) {
      record();
      return;
    }
    // Before the list's first frame nobody has scrolled it and nothing older can have come: the first anchor is
    // read in that frame, before its layout, since reading scrollTop here forced the page's first layout inside
    // the commit (the longest task of a room's first load on a phone).
    const frame = requestAnimationFrame(() => {
      framed.current = true;
      record();
    });
    return () => cancelAnimationFrame(frame);
  });

  return record;
}
