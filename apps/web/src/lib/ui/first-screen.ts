import { startTransition, useEffect, useState } from 'react';

// Work the first screen does not need — the notification channel, a room's socket and its text formatter — waits
// until that screen has painted: on a slow phone and network the first screen's code and data then
// have the connections and the main thread to themselves. A room says when it has drawn (its messages, or why
// there are none); any other screen says so as it mounts (RootLayout). Nothing waits longer than FALLBACK_MS.

const FALLBACK_MS = 3000;

let released = typeof window === 'undefined';
let marked = false;
const waiting = new Set<() => void>();

function release(): void {
  if (released) return;
  released = true;
  // Each in a task of its own: together they were one more long task on a phone.
  for (const run of waiting) setTimeout(run, 0);
  waiting.clear();
}

if (!released) setTimeout(release, FALLBACK_MS);

/**
 * How long after its paint the first screen keeps the way clear: the browser shows a frame some tens of
 * milliseconds after painting it, and a room's list settles its first scroll to the bottom meanwhile.
 */
const SETTLE_MS = 150;

/** The first screen has committed what it shows: the waiting work runs once that is painted and settled. */
export function firstScreenDrawn(): void {
  if (released || marked) return;
  marked = true;
  // A frame's callbacks run before its paint; a timer set there runs after it.
  requestAnimationFrame(() => setTimeout(release, SETTLE_MS));
}

/** Runs `run` once the first screen has painted (at once after that); returns a cancel. */
export function afterFirstScreen(run: () => void): () => void {
  if (released) {
    run();
    return () => {};
  }
  waiting.add(run);
  return () => waiting.delete(run);
}

/**
 * Whether the first screen has painted, for a component that renders only after it. What it then draws is drawn
 * as a transition: React renders it in slices between which the page answers input, not in one long task.
 */
export function useAfterFirstScreen(): boolean {
  const [ready, setReady] = useState(released);
  useEffect(
    () => (ready ? undefined : afterFirstScreen(() => startTransition(() => setReady(true)))),
    [ready],
  );
  return ready;
}
