import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

// A chunk of the app's code loaded on demand, tried until it loads. A chunk asked for while the network or the
// server is down (a restart, a tunnel) would otherwise fail for good: React.lazy hands the failure to the nearest
// error boundary, and for the parts every screen carries (the toasts, the notification socket, the chat list
// pane) that is the root — the whole page went blank when the server was restarted as a room opened. Browsers
// fetch a module again on a later import() after a failed one (whatwg/html#10327).

/** Waits between attempts: at once when the browser says it is online again, else after these. */
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15_000];

/** `load()` until it resolves; waits between failures as above. Never rejects. */
export function retryImport<T>(
  load: () => Promise<T>,
  delays: readonly number[] = RETRY_DELAYS_MS,
): Promise<T> {
  return new Promise<T>((resolve) => {
    let failures = 0;
    const attempt = () => {
      load().then(resolve, () => {
        const delay = delays[Math.min(failures, delays.length - 1)] ?? 0;
        failures += 1;
        const again = () => {
          clearTimeout(timer);
          window.removeEventListener('online', again);
          attempt();
        };
        const timer = setTimeout(again, delay);
        window.addEventListener('online', again);
      });
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
