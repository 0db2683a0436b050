import { useVirtualizer } from '@tanstack/react-virtual';
import { MessagesSquare } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import {
  observeRectAfterLayout,
  scrollAfterFirstLayout,
  useFirstMeasurement,
} from '../hooks/use-first-measurement';
import type { ScrollTarget } from '../hooks/use-message-actions';
import { usePrependAnchor } from '../hooks/use-prepend-anchor';
import { type MessageRow, UNREAD_ROW_KEY } from '../lib/message-rows';
import { JumpToLatest, UnreadDivider } from './list-markers';
import { MessageItem } from './message-item';

/** Older history starts loading when the view is this close to the top. */
const LOAD_OLDER_WITHIN_PX = 400;
/** Closer than this to the bottom counts as reading the newest messages. */
const AT_BOTTOM_PX = 48;
/** How long a message shown by a jump (a quote clicked) stays highlighted. */
const HIGHLIGHT_MS = 2500;
/** Estimated heights until a row is measured, and the list's padding above and below. */
const MESSAGE_ESTIMATE = 68;
const OTHER_ESTIMATE = 40;
const PADDING = 8;
/**
 * Rows mounted beyond the view: none for the room's first drawing, which is the page's longest task (its view is
 * taken as the window's height, taller than the list by the header and the composer: rows a little taller than
 * estimated still fill it), more after.
 */
const FIRST_OVERSCAN = 0;
const OVERSCAN = 10;

export interface MessageListProps {
  rows: MessageRow[];
  meId: number;
  isGroup: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (clientId: string) => void;
  /** The room opens at this message's 'New messages' divider (issue 10); null opens at the bottom. */
  openAtUnread: boolean;
  /** A message to scroll to and highlight. */
  target: ScrollTarget | null;
}

/**
 * The virtualized message list: only the rows near the viewport are mounted (a 10,000-message chat keeps about
 * 30); prepending older history keeps the visible message in place; a new last message scrolls smoothly to
 * the bottom (SPEC §4) while the reader is there or when it is their own. A reader who scrolled up to read is
 * left in place and offered 'Jump to latest' with the count of messages below (issue 10).
 */
export function MessageList({
  rows,
  meId,
  isGroup,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  onRetry,
  openAtUnread,
  target,
}: MessageListProps) {
  const parentRef = useRef<HTMLElement>(null);
  // Stable while the rows are: the virtualizer rebuilds its measurements whenever these functions change.
  const estimateSize = useCallback(
    (index: number) => (rows[index]?.kind === 'message' ? MESSAGE_ESTIMATE : OTHER_ESTIMATE),
    [rows],
  );
  const getItemKey = useCallback((index: number) => rows[index]!.key, [rows]);
  // The first drawing is measured after the browser's layout, and shown once measured (use-first-measurement.ts).
  const { measureRow, drawn, measured } = useFirstMeasurement(estimateSize);
  const [overscan, setOverscan] = useState(FIRST_OVERSCAN);
  useEffect(() => {
    if (typeof requestIdleCallback !== 'function') {
      const timer = setTimeout(() => setOverscan(OVERSCAN), 200);
      return () => clearTimeout(timer);
    }
    const idle = requestIdleCallback(() => setOverscan(OVERSCAN), { timeout: 1000 });
    return () => cancelIdleCallback(idle);
  }, []);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize,
    getItemKey,
    measureElement: measureRow,
    observeElementRect: observeRectAfterLayout,
    scrollToFn: scrollAfterFirstLayout,
    overscan,
    paddingStart: PADDING,
    paddingEnd: PADDING,
    // A scroll redraws the window in a task of its own, not inside the scroll event: the room's first scroll to
    // the bottom then paints what the first render drew before drawing the rows it brings into view.
    useFlushSync: false,
    // A room opening at the bottom draws the newest rows first, not the oldest ones it is about to scroll away
    // from: the first render's window is aimed at the estimated end, with the window's height as the view's.
    initialRect: { width: 0, height: typeof window === 'undefined' ? 0 : window.innerHeight },
    initialOffset: () => {
      if (openAtUnread) return 0;
      let total = 2 * PADDING;
      for (let i = 0; i < rows.length; i++) total += estimateSize(i);
      return Math.max(0, total - (typeof window === 'undefined' ? 0 : window.innerHeight));
    },
  });

  const recordAnchor = usePrependAnchor(virtualizer, rows, parentRef);

  /** Whether new messages scroll the view down: the reader is at the bottom, or has not scrolled up since. */
  const follow = useRef(!openAtUnread);
  const lastTop = useRef(0);
  /** Messages below the view while the reader is scrolled up; null at the bottom. */
  const [newer, setNewer] = useState<number | null>(null);
  const rowsRef = useRef(rows);
  rowsRef.current = rows;

  const measureBelow = () => {
    const el = parentRef.current;
    if (!el) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < AT_BOTTOM_PX) {
      follow.current = true;
      setNewer(null);
      return;
    }
    const list = rowsRef.current;
    const last = virtualizer.getVirtualItemForOffset(el.scrollTop + el.clientHeight - 1);
    let count = 0;
    for (let i = (last?.index ?? list.length) + 1; i < list.length; i++)
      if (list[i]!.kind === 'message') count++;
    setNewer(count);
  };

  const lastRow = rows.length ? rows[rows.length - 1]! : null;
  const lastKey = lastRow?.key ?? null;
  const lastIsMine = lastRow?.kind === 'message' && lastRow.message.sender === meId;
  const seenLastKey = useRef<string | null>(null);
  /**
   * The room's first scroll (to the bottom, or to the unread divider), made in the next animation frame, just
   * before that frame's layout and paint: made in the commit, its reading of the list's height forced the page's
   * first layout inside the commit's task, the longest of a room's first load on a phone (issue 12).
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
  // view follows the newest messages, every growth of the list keeps it at the bottom (issue 12's defect: the
  // list stopped short of the bottom after an image was sent).
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    const el = parentRef.current;
    if (!el || !follow.current || seenLastKey.current === null || firstScroll.current !== null) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight > 1) virtualizer.scrollToEnd();
  }, [totalSize, virtualizer]);

  // A jump to a message (a quote clicked): scroll it to the middle, highlight it, and give it the focus so a
  // screen reader reads it. The focus waits for its row to be drawn, and the highlight's time for the row to be in
  // view, however long the scroll and the drawing take (on a slow phone that was longer than the highlight lasted).
  const [highlightId, setHighlightId] = useState<number | null>(null);
  /** The message a jump is bringing into view, until its row is drawn. */
  const arriving = useRef<number | null>(null);
  /** Watches the drawn row until it is in view; then the highlight's time runs. */
  const inView = useRef<IntersectionObserver | null>(null);
  const highlightTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const stopHighlight = () => {
    inView.current?.disconnect();
    inView.current = null;
    clearTimeout(highlightTimer.current);
  };
  const reveal = () => {
    const id = arriving.current;
    // An invisible row cannot take the focus: the first drawing waits for its measurement.
    if (id === null || !measured.current) return;
    const row = parentRef.current?.querySelector<HTMLElement>(`[data-message-id="${id}"]`);
    if (!row) return;
    arriving.current = null;
    row.focus({ preventScroll: true });
    stopHighlight();
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        observer.disconnect();
        highlightTimer.current = setTimeout(
          () => setHighlightId((current) => (current === id ? null : current)),
          HIGHLIGHT_MS,
        );
      },
      { root: parentRef.current },
    );
    observer.observe(row);
    inView.current = observer;
  };
  // After every render: the row may just have been drawn.
  useLayoutEffect(reveal);
  useEffect(() => stopHighlight, []);
  // A new target (not new rows) starts a jump.
  useEffect(() => {
    if (!target) return;
    const index = rowsRef.current.findIndex((r) => r.kind === 'message' && r.message.id === target.id);
    if (index < 0) return;
    follow.current = false;
    // A room opened at a message (a search result): the jump is its first scroll, not the bottom.
    cancelFirstScroll();
    virtualizer.scrollToIndex(index, { align: 'center' });
    arriving.current = target.id;
    setHighlightId(target.id);
    reveal();
  }, [target]);

  const onScroll = () => {
    recordAnchor();
    const el = parentRef.current;
    if (el) {
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
    }
    if (!el || !hasOlder || loadingOlder || seenLastKey.current === null) return;
    if (el.scrollTop < LOAD_OLDER_WITHIN_PX) onLoadOlder();
  };
  // A first page too short to scroll can never reach the top by scrolling; fetch more right away.
  useEffect(() => {
    const el = parentRef.current;
    if (el && hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) onLoadOlder();
  });

  const items = virtualizer.getVirtualItems();
  return (
    <div className="relative flex min-h-0 flex-1 flex-col">
      {loadingOlder && (
        <div
          role="status"
          className="absolute top-2 left-1/2 z-10 inline-flex -translate-x-1/2 items-center gap-2 rounded-full bg-white dark:bg-slate-900 px-3 py-1 text-xs text-slate-500 dark:text-slate-400 shadow"
        >
          <Spinner size="sm" className="text-brand-600 dark:text-brand-300" />
          Loading older messages...
        </div>
      )}
      <section
        ref={parentRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain [overflow-anchor:none]"
        aria-label="Messages"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll area must be reachable by keyboard to scroll it
        tabIndex={0}
      >
        {rows.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center px-4 text-center text-slate-500 dark:text-slate-400">
            <MessagesSquare aria-hidden="true" className="mb-2 size-8 text-slate-300 dark:text-slate-600" />
            <p className="text-sm">No messages yet. Say hello!</p>
          </div>
        ) : (
          <div
            className={`relative w-full ${drawn ? '' : 'invisible'}`}
            style={{ height: virtualizer.getTotalSize() }}
          >
            {items.map((item) => {
              const row = rows[item.index]!;
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute top-0 left-0 w-full"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  {row.kind === 'unread' ? (
                    <UnreadDivider />
                  ) : row.kind === 'day' ? (
                    <div className="flex justify-center py-2">
                      <span className="rounded-full bg-white dark:bg-slate-900 px-3 py-1 text-xs font-medium text-slate-500 dark:text-slate-400 shadow-sm">
                        {row.label}
                      </span>
                    </div>
                  ) : (
                    <MessageItem
                      message={row.message}
                      pending={row.pending}
                      meId={meId}
                      isGroup={isGroup}
                      onRetry={onRetry}
                      highlighted={row.message.id !== 0 && row.message.id === highlightId}
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </section>
      {newer !== null && (
        <JumpToLatest
          count={newer}
          onClick={() => {
            follow.current = true;
            virtualizer.scrollToEnd({ behavior: 'smooth' });
          }}
        />
      )}
    </div>
  );
}
