import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

/**
 * `?message={id}` (a search result opened): once the list is on screen, jumps to that message as a quote does
 * (loaded around it, scrolled to and highlighted), then drops the parameter so a reload or Back does not repeat it.
 */
export function useMessageParam(jumpTo: (messageId: number) => void, ready: boolean) {
  const [params, setParams] = useSearchParams();
  const raw = params.get('message');
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (!ready || raw === null || handled.current === raw) return;
    handled.current = raw;
    const id = Number(raw);
    if (Number.isSafeInteger(id) && id > 0) jumpTo(id);
    setParams(
      (next) => {
        next.delete('message');
        return next;
      },
      { replace: true },
    );
  }, [ready, raw, jumpTo, setParams]);
  // A later result for the same message, opened from the search again, jumps again.
  useEffect(() => {
    if (raw === null) handled.current = null;
  }, [raw]);
}
