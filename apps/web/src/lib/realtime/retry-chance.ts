// When trying again at once is likely to work, for whatever waits by backoff.ts: the browser's own signals.

/**
 * Calls `run` whenever trying again now is likely to work: the browser says it is online again, or the page
 * comes back into view (a phone's browser freezes a hidden tab's timers, and a laptop wakes from sleep with
 * every wait long overdue). Returns the unsubscribe.
 */
export function onRetryChance(run: () => void): () => void {
  // Neither exists outside a browser (the unit tier's Node): nothing to listen to there.
  const win = typeof window === 'undefined' ? null : window;
  const doc = typeof document === 'undefined' ? null : document;
  const whenVisible = () => {
    if (doc?.visibilityState === 'visible') run();
  };
  win?.addEventListener('online', run);
  doc?.addEventListener('visibilitychange', whenVisible);
  return () => {
    win?.removeEventListener('online', run);
    doc?.removeEventListener('visibilitychange', whenVisible);
  };
}
