import {
  elementScroll,
  measureElement,
  observeElementRect,
  type Rect,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { type RefObject, useCallback, useRef, useState } from 'react';

// The room's first drawing without a layout forced inside its commit (the longest task of its first load on a phone). Its
// rows and the list's view are first measured by ResizeObservers, after the browser's own layout, not by reads in
// the commit: a row ref's read forced the page's first layout there (about 120 ms at 4× slowdown), and the sizes
// it found re-rendered the list within the commit, with the effects flushed before that re-render, all one task.

type ListVirtualizer = Virtualizer<HTMLElement, Element>;

/**
 * The scroll element's size, as the virtualizer's own observer reads it, but the first time from the observer's
 * first report instead of on mount; until then the view is taken as the window's height (initialRect).
 */
export function observeRectAfterLayout(instance: ListVirtualizer, cb: (rect: Rect) => void) {
  const element = instance.scrollElement;
  const ResizeObserver = instance.targetWindow?.ResizeObserver;
  if (!element || !ResizeObserver) return observeElementRect(instance, cb);
  const observer = new ResizeObserver(() => cb({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** Virtualizers whose scroll element has had its first layout (scrollAfterFirstLayout). */
const laidOut = new WeakSet<ListVirtualizer>();

/**
 * The virtualizer's elementScroll, but a scroll asked for before the list was first laid out (the virtualizer
 * puts the element at its initial offset when it attaches it, in the commit) is made in the next animation frame,
 * just before that frame's own layout: setting scrollTop in the commit forced the page's first layout there.
 */
export function scrollAfterFirstLayout(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: ListVirtualizer,
): void {
  const win = instance.targetWindow;
  if (laidOut.has(instance) || !win) {
    elementScroll(offset, options, instance);
    return;
  }
  win.requestAnimationFrame(() => {
    laidOut.add(instance);
    elementScroll(offset, options, instance);
  });
}

export interface FirstMeasurement {
  /** The virtualizer's measureElement: the estimate until the first report, then as the virtualizer measures. */
  measureRow: (element: Element, entry: ResizeObserverEntry | undefined, instance: ListVirtualizer) => number;
  /** Whether the first measurement has arrived: until it is drawn the rows stay invisible, not seen out of place. */
  drawn: boolean;
  /** The same, for code that runs outside a render (a row can take the focus only once it is visible). */
  measured: RefObject<boolean>;
}

/**
 * Until the rows' first ResizeObserver report, a row's ref does not read its height (it answers the estimate, so
 * nothing changes); from then on rows are measured in their refs as before, beside rows already measured.
 */
export function useFirstMeasurement(estimateSize: (index: number) => number): FirstMeasurement {
  const measured = useRef(typeof ResizeObserver !== 'function');
  const [drawn, setDrawn] = useState(measured.current);
  const measureRow = useCallback(
    (element: Element, entry: ResizeObserverEntry | undefined, instance: ListVirtualizer) => {
      if (entry && !measured.current) {
        measured.current = true;
        // Drawn with the sizes in the same render, even when every estimate was right.
        setDrawn(true);
      }
      if (!entry && !measured.current) return estimateSize(instance.indexFromElement(element));
      return measureElement(element, entry, instance);
    },
    [estimateSize],
  );
  return { measureRow, drawn, measured };
}
