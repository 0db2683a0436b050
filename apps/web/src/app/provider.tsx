import { I18nProvider } from '@lingui/react';
import { TOAST_AUTO_CLOSE_MS } from '@parley/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect } from 'react';
import { OfflineBar } from '../components/offline-bar';
import { i18n } from '../lib/i18n/i18n';
import { usePersistedQueries } from '../lib/offline/use-persisted-queries';
import { useAfterFirstScreen } from '../lib/ui/first-screen';
import { lazyRetry } from '../lib/ui/retry-import';
import { isDarkUnder, useThemeChoice, watchTheme } from '../lib/ui/theme';
import { useMediaQuery } from '../lib/ui/use-media-query';
import { queryClient } from './query-client';

// The toasts' code loads once the first screen has painted (lib/ui/toast.ts).
const ToastContainer = lazyRetry(async () => ({ default: (await import('react-toastify')).ToastContainer }));

/** App-wide providers: the language, the query cache and the toast stack (SPEC §4: top-right, 5000 ms, Alt+T). */
export function AppProvider({ children }: { children: ReactNode }) {
  usePersistedQueries(queryClient);
  useEffect(watchTheme, []);
  const choice = useThemeChoice();
  const systemDark = useMediaQuery('(prefers-color-scheme: dark)');
  const dark = isDarkUnder(choice, systemDark);
  // On a phone the stack goes to the bottom and shows two at most, so it never covers a form's card.
  const phone = useMediaQuery('(max-width: 480px)');
  const toasts = useAfterFirstScreen();
  return (
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        {children}
        <OfflineBar />
        {toasts && (
          <Suspense fallback={null}>
            <ToastContainer
              position={phone ? 'bottom-center' : 'top-right'}
              autoClose={TOAST_AUTO_CLOSE_MS}
              newestOnTop
              limit={phone ? 2 : 4}
              theme={dark ? 'dark' : 'light'}
            />
          </Suspense>
        )}
      </QueryClientProvider>
    </I18nProvider>
  );
}
