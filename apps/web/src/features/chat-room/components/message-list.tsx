import { useVirtualizer } from '@tanstack/react-virtual';
import { MessagesSquare } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { usePrependAnchor } from '../hooks/use-prepend-anchor';
import type { MessageRow } from '../lib/message-rows';
import { MessageItem } from './message-item';

/** Older history starts loading when the view is this close to the top. */
const LOAD_OLDER_WITHIN_PX = 400;

export interface MessageListProps {
  rows: MessageRow[];
  meId: number;
  isGroup: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  onRetry: (clientId: string) => void;
}

/**
 * The virtualized message list: only the rows near the viewport are mounted (a 10,000-message chat keeps about
 * 30); prepending older history keeps the visible message in place; a new last message scrolls smoothly to
 * the bottom (SPEC §4).
 */
export function MessageList({
  rows,
  meId,
  isGroup,
  hasOlder,
  loadingOlder,
  onLoadOlder,
  onRetry,
}: MessageListProps) {
  const parentRef = useRef<HTMLElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (index) => (rows[index]?.kind === 'day' ? 40 : 68),
    getItemKey: (index) => rows[index]!.key,
    overscan: 10,
    paddingStart: 8,
    paddingEnd: 8,
  });

  const recordAnchor = usePrependAnchor(virtualizer, rows, parentRef);

  const lastKey = rows.length ? rows[rows.length - 1]!.key : null;
  const seenLastKey = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (lastKey === null) return;
    if (seenLastKey.current === null) virtualizer.scrollToEnd();
    else if (seenLastKey.current !== lastKey) virtualizer.scrollToEnd({ behavior: 'smooth' });
    seenLastKey.current = lastKey;
  }, [lastKey, virtualizer]);

  const onScroll = () => {
    recordAnchor();
    const el = parentRef.current;
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
          className="absolute top-2 left-1/2 z-10 inline-flex -translate-x-1/2 items-center gap-2 rounded-full bg-white px-3 py-1 text-xs text-slate-500 shadow"
        >
          <Spinner size="sm" className="text-brand-600" />
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
          <div className="flex h-full flex-col items-center justify-center px-4 text-center text-slate-500">
            <MessagesSquare aria-hidden="true" className="mb-2 size-8 text-slate-300" />
            <p className="text-sm">No messages yet. Say hello!</p>
          </div>
        ) : (
          <div className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
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
                  {row.kind === 'day' ? (
                    <div className="flex justify-center py-2">
                      <span className="rounded-full bg-white px-3 py-1 text-xs font-medium text-slate-500 shadow-sm">
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
                    />
                  )}
                </div>
              );
            })}
          </div>
        )}
      </section>
    </div>
  );
}
