import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { type MessageRow, UNREAD_ROW_KEY } from '../lib/message-rows';
import { newBelow, seenThrough } from '../lib/new-below';

/** Closer than this to the bottom counts as reading the newest messages. */
const AT_BOTTOM_PX = 48;

interface FollowBottomOptions {
  virtualizer: Virtualizer<HTMLElement, Element>;
  scrollRef: RefObject<HTMLElement | null>;
  rows: MessageRow[];
  /** The rows of the latest render, for code that runs outside a render. */
  rowsRef: RefObject<MessageRow[]>;
  meId: number;
  /** The room opens at the 'New messages' divider instead of the bottom. */
  openAtUnread: boolean;
  /** People the reader blocked: their messages are never counted new. */
  hidden: ReadonlySet<number>;
}

/**
 * The message list's first scroll and its following of the newest messages: the room opens at the bottom (or at
 * the unread divider); a new last message scrolls smoothly to the bottom (SPEC §4) while the reader is there or
 * when it is their own. A reader who scrolled up to read is left in place and told how many messages below
 * they have not seen yet (`newer`, for 'Jump to latest'; lib/new-below.ts).
 */
export function useFollowBottom({
  virtualizer,
  scrollRef,
  rows,
  rowsRef,
  meId,
  openAtUnread,
  hidden,
}: FollowBottomOptions) {
  /** Whether new messages scroll the view down: the reader is at the bottom, or has not scrolled up since. */
  const follow = useRef(!openAtUnread);
  const lastTop = useRef(0);
  /** Messages below the view not seen yet while the reader is scrolled up; null at the bottom. */
  const [newer, setNewer] = useState<number | null>(null);
  /** The newest message id the reader has had in view. */
  const seenUpTo = useRef(0);
  const hiddenRef = useRef(hidden);
  hiddenRef.current = hidden;

  const measureBelow = () => {
    const el = scrollRef.current;
    if (!el) return;
    const list = rowsRef.current;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < AT_BOTTOM_PX) {
      follow.current = true;
      seenUpTo.current = Math.max(seenUpTo.current, seenThrough(list, list.length - 1));
      setNewer(null);
      return;
    }
    const lastIndex =
      virtualizer.getVirtualItemForOffset(el.scrollTop + el.clientHeight - 1)?.index ?? list.length;
    seenUpTo.current = Math.max(seenUpTo.current, seenThrough(list, lastIndex));
    setNewer(newBelow(list, lastIndex, seenUpTo.current, meId, hiddenRef.current));
  };

  const lastRow = rows.length ? rows[rows.length - 1]! : null;
  const lastKey = lastRow?.key ?? null;
  const lastIsMine = lastRow?.kind === 'message' && lastRow.message.sender === meId;
  const seenLastKey = useRef<string | null>(null);
  /**
   * The room's first scroll (to the bottom, or to the unread divider), made in the next animation frame, just
   * before that frame's layout and paint: made in the commit, its reading of the list's height forced the page's
   * first layout inside the commit's task, the longest of a room's first load on a phone.
   */
  const firstScroll = useRef<number | null>(null);
  /** Cancels the first scroll if it is still to be made; says whether it was. */
  const cancelFirstScroll = () => {
    if (firstScroll.current === null) return false;
    cancelAnimationFrame(firstScroll.current);
    firstScroll.current = null;
    return true;
  };
  useLayoutEffect(() => {
    if (lastKey === null) return;
    if (seenLastKey.current === null) {
      firstScroll.current = requestAnimationFrame(() => {
        firstScroll.current = null;
        const divider = openAtUnread ? rowsRef.current.findIndex((r) => r.key === UNREAD_ROW_KEY) : -1;
        if (divider >= 0) virtualizer.scrollToIndex(divider, { align: 'start' });
        else virtualizer.scrollToEnd();
      });
    } else if (seenLastKey.current !== lastKey) {
      if (follow.current || lastIsMine) {
        follow.current = true;
        virtualizer.scrollToEnd({ behavior: 'smooth' });
      }
    }
    seenLastKey.current = lastKey;
    const frame = requestAnimationFrame(measureBelow);
    return () => {
      cancelAnimationFrame(frame);
      // The first scroll not made yet (a newer message came first, or a second mount): the next run makes it.
      if (cancelFirstScroll()) seenLastKey.current = null;
    };
    // Runs when the newest row changes, not on every render.
  }, [lastKey, virtualizer]);

  // Pictures and videos take their height only once loaded, after the scroll to the bottom was aimed: while the
  // view follows the newest messages, every growth of the list keeps it at the bottom (without this, the list
  // stopped short of the bottom after an image was sent).
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || !follow.current || seenLastKey.current === null || firstScroll.current !== null) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight > 1) virtualizer.scrollToEnd();
  }, [totalSize, virtualizer]);

  return {
    newer,
    /** Whether the room has had its first rows (and so its first scroll). */
    opened: () => seenLastKey.current !== null,
    /** For the list's scroll event. */
    onScroll: () => {
      const el = scrollRef.current;
      if (!el) return;
      // Scrolling up leaves the bottom; reaching it again follows new messages once more. Where the bottom is
      // comes from the rows as measured, not from the page's height: a row that shrank (a sent message confirmed)
      // moves the view up with it, and by this event a picture still loading below may have grown the page
      // already; neither is the reader leaving the bottom.
      if (
        el.scrollTop < lastTop.current - 1 &&
        virtualizer.getTotalSize() - el.scrollTop - el.clientHeight >= AT_BOTTOM_PX
      )
        follow.current = false;
      lastTop.current = el.scrollTop;
      measureBelow();
    },
    /**
     * A jump to a message leaves the bottom. A room opened at a message (a search result) makes the jump its first
     * scroll, not the bottom.
     */
    leave: () => {
      follow.current = false;
      cancelFirstScroll();
    },
    /** 'Jump to latest': back to the bottom, following new messages again. */
    jumpToLatest: () => {
      follow.current = true;
      virtualizer.scrollToEnd({ behavior: 'smooth' });
    },
  };
}
