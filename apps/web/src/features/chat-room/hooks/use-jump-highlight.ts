import type { Virtualizer } from '@tanstack/react-virtual';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MessageRow } from '../lib/message-rows';
import type { ScrollTarget } from './use-message-actions';

/** How long a message shown by a jump (a quote clicked) stays highlighted. */
const HIGHLIGHT_MS = 2500;

interface JumpHighlightOptions {
  /** A message to scroll to and highlight; a new target (not new rows) starts a jump. */
  target: ScrollTarget | null;
  virtualizer: Virtualizer<HTMLElement, Element>;
  scrollRef: RefObject<HTMLElement | null>;
  /** The rows of the latest render, for code that runs outside a render. */
  rowsRef: RefObject<MessageRow[]>;
  /** Whether the rows are visible yet (use-first-measurement.ts). */
  measured: RefObject<boolean>;
  /** Called as a jump starts, before its scroll. */
  onJump: () => void;
}

/**
 * A jump to a message (a quote clicked): scroll it to the middle, highlight it, and give it the focus so a screen
 * reader reads it. The focus waits for its row to be drawn, and the highlight's time for the row to be in view,
 * however long the scroll and the drawing take (on a slow phone that was longer than the highlight lasted).
 * Returns the id of the message highlighted, if any.
 */
export function useJumpHighlight({
  target,
  virtualizer,
  scrollRef,
  rowsRef,
  measured,
  onJump,
}: JumpHighlightOptions): number | null {
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
    const row = scrollRef.current?.querySelector<HTMLElement>(`[data-message-id="${id}"]`);
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
      { root: scrollRef.current },
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
    onJump();
    virtualizer.scrollToIndex(index, { align: 'center' });
    arriving.current = target.id;
    setHighlightId(target.id);
    reveal();
  }, [target]);
  return highlightId;
}
