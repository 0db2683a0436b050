import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { Backoff, type BackoffOptions } from '../realtime/backoff';
import { onRetryChance } from '../realtime/retry-chance';

// A chunk of the app's code loaded on demand, tried until it loads. A chunk asked for while the network or the
// server is down (a restart, a tunnel) would otherwise fail for good: React.lazy hands the failure to the nearest
// error boundary, and for the parts every screen carries (the toasts, the notification socket, the chat list
// pane) that is the root — the whole page went blank when the server was restarted as a room opened. Browsers
// fetch a module again on a later import() after a failed one (whatwg/html#10327). The waits are the sockets' rule.

/** Waits between attempts (lib/realtime/backoff.ts): 0.5–1 s at first, doubling up to 7.5–15 s. */
const IMPORT_BACKOFF: BackoffOptions = { maxMs: 15_000 };

/** `load()` until it resolves: after each failure it waits as above, or tries at once when a retry is likely to work. */
export function retryImport<T>(load: () => Promise<T>, options: BackoffOptions = IMPORT_BACKOFF): Promise<T> {
  return new Promise<T>((resolve) => {
    const backoff = new Backoff(options);
    const stopListening = onRetryChance(() => backoff.now());
    const attempt = () => {
      load().then(
        (value) => {
          stopListening();
          resolve(value);
        },
        () => backoff.schedule(attempt),
      );
    };
    attempt();
  });
}

/** React.lazy over retryImport: the component's Suspense fallback stays until its code has loaded. */
// biome-ignore lint/suspicious/noExplicitAny: React.lazy's own bound on the component's props
export function lazyRetry<C extends ComponentType<any>>(
  load: () => Promise<{ default: C }>,
): LazyExoticComponent<C> {
  return lazy(() => retryImport(load));
}
