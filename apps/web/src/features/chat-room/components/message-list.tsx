import { useVirtualizer } from '@tanstack/react-virtual';
import { MessagesSquare } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { useT } from '../../../lib/i18n/i18n';
import { useBlockedPeople } from '../../../lib/queries/safety';
import {
  observeRectAfterLayout,
  scrollAfterFirstLayout,
  useFirstMeasurement,
} from '../hooks/use-first-measurement';
import { useFollowBottom } from '../hooks/use-follow-bottom';
import { useJumpHighlight } from '../hooks/use-jump-highlight';
import type { ScrollTarget } from '../hooks/use-message-actions';
import { usePrependAnchor } from '../hooks/use-prepend-anchor';
import type { MessageRow } from '../lib/message-rows';
import { JumpToLatest, UnreadDivider } from './list-markers';
import { MessageItem } from './message-item';

/** Older history starts loading when the view is this close to the top. */
const LOAD_OLDER_WITHIN_PX = 400;
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
  /** The room opens at the 'New messages' divider; false opens it at the bottom. */
  openAtUnread: boolean;
  /** A message to scroll to and highlight. */
  target: ScrollTarget | null;
}

/**
 * The virtualized message list: only the rows near the viewport are mounted (a 10,000-message chat keeps about
 * 30); prepending older history keeps the visible message in place (use-prepend-anchor.ts); the view follows
 * the newest messages while the reader is at the bottom, and offers 'Jump to latest' when they scrolled up
 * (use-follow-bottom.ts); a quote clicked jumps to its message and highlights it (use-jump-highlight.ts).
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
  const t = useT();
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

  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const blocked = useBlockedPeople().data?.results;
  const hidden = useMemo(() => new Set(blocked?.map((p) => p.id)), [blocked]);
  const follow = useFollowBottom({
    virtualizer,
    scrollRef: parentRef,
    rows,
    rowsRef,
    meId,
    openAtUnread,
    hidden,
  });
  const highlightId = useJumpHighlight({
    target,
    virtualizer,
    scrollRef: parentRef,
    rowsRef,
    measured,
    onJump: follow.leave,
  });

  const onScroll = () => {
    recordAnchor();
    follow.onScroll();
    const el = parentRef.current;
    if (!el || !hasOlder || loadingOlder || !follow.opened()) return;
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
          {t('room.list.loadingOlder')}
        </div>
      )}
      <section
        ref={parentRef}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto overscroll-contain [overflow-anchor:none]"
        aria-label={t('room.list.label')}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: the scroll area must be reachable by keyboard to scroll it
        tabIndex={0}
      >
        {rows.length === 0 ? (
          <div className="flex h-full flex-col items-center justify-center px-4 text-center text-slate-500 dark:text-slate-400">
            <MessagesSquare aria-hidden="true" className="mb-2 size-8 text-slate-300 dark:text-slate-600" />
            <p className="text-sm">{t('room.list.empty')}</p>
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
                  className="absolute top-0 start-0 w-full"
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
      {follow.newer !== null && <JumpToLatest count={follow.newer} onClick={follow.jumpToLatest} />}
    </div>
  );
}
