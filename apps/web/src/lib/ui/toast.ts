// Toasts (SPEC §4: top-right, 5000 ms, Alt+T) through react-toastify, whose code — a tenth of what every screen
// loaded first — comes once the first screen has painted (its container mounts then, app/provider.tsx), or with
// a toast raised sooner. A toast raised before the container is there waits in react-toastify's own queue.

import { retryImport } from './retry-import';

export interface ToastOptions {
  /** One toast at a time for this id. */
  toastId?: string;
}

const toastify = () => retryImport(() => import('react-toastify'));

const show =
  (kind: 'success' | 'error' | 'info') =>
  (message: string, options?: ToastOptions): void => {
    void toastify().then(({ toast }) => toast[kind](message, options));
  };

export const toast = { success: show('success'), error: show('error'), info: show('info') };
