import { I18nProvider } from '@lingui/react';
import { TOAST_AUTO_CLOSE_MS } from '@parley/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect } from 'react';
import type { CloseButtonProps } from 'react-toastify';
import { OfflineBar } from '../components/offline-bar';
import { i18n, useT } from '../lib/i18n/i18n';
import { usePersistedQueries } from '../lib/offline/use-persisted-queries';
import { useAfterFirstScreen } from '../lib/ui/first-screen';
import { lazyRetry } from '../lib/ui/retry-import';
import { isDarkUnder, useThemeChoice, watchTheme } from '../lib/ui/theme';
import { useMediaQuery } from '../lib/ui/use-media-query';
import { queryClient } from './query-client';

// The toasts' code loads once the first screen has painted (lib/ui/toast.ts).
const ToastContainer = lazyRetry(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** The library's close button (its classes and icon) with a name in the reader's language. */
function ToastClose({ closeToast, theme }: CloseButtonProps) {
  const t = useT();
  return (
    <button
      className={`Toastify__close-button Toastify__close-button--${theme}`}
      type="button"
      aria-label={t('general.toasts.close')}
      onClick={(e) => {
        e.stopPropagation();
        closeToast(true);
      }}
    >
      <svg aria-hidden="true" viewBox="0 0 14 16">
        <path
          fillRule="evenodd"
          d="M7.71 8.23l3.75 3.75-1.48 1.48-3.75-3.75-3.75 3.75L1 11.98l3.75-3.75L1 4.48 2.48 3l3.75 3.75L9.98 3l1.48 1.48-3.75 3.75z"
        />
      </svg>
    </button>
  );
}

/** App-wide providers: the language, the query cache and the toast stack (SPEC §4: top-right, 5000 ms, Alt+T). */
export function AppProvider({ children }: { children: ReactNode }) {
  usePersistedQueries(queryClient);
  useEffect(watchTheme, []);
  const toasts = useAfterFirstScreen();
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {children}
        <OfflineBar />
        {toasts && <Toasts />}
      </QueryClientProvider>
    </I18nProvider>
  );
}

/** The toast stack, named in the reader's language. */
function Toasts() {
  const t = useT();
  const choice = useThemeChoice();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const dark = isDarkUnder(choice, systemDark);
  // On a phone the stack goes to the bottom and shows two at most, so it never covers a form's card.
  const phone = useMediaQuery('(max-width: 480px)');
  return (
    <Suspense fallback={null}>
      <ToastContainer
        position={phone ? 'bottom-center' : 'top-right'}
        autoClose={TOAST_AUTO_CLOSE_MS}
        newestOnTop
        limit={phone ? 2 : 4}
        theme={dark ? 'dark' : 'light'}
        aria-label={t('general.toasts.region')}
        closeButton={ToastClose}
      />
    </Suspense>
  );
}
