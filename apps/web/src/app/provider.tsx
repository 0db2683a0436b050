import { I18nProvider } from '@lingui/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, Suspense, useEffect } from 'react';
import { OfflineBar } from '../components/offline-bar';
import { i18n } from '../lib/i18n/i18n';
import { usePersistedQueries } from '../lib/offline/use-persisted-queries';
import { useAfterFirstScreen } from '../lib/ui/first-screen';
import { lazyRetry } from '../lib/ui/retry-import';
import { watchTheme } from '../lib/ui/theme';
import { queryClient } from './query-client';

// The toasts' code (the library and its stack) loads once the first screen has painted (lib/ui/toast.ts).
const ToastStack = lazyRetry(async () => ({ default: (await import('./toast-stack')).ToastStack }));

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
        {toasts && (
          <Suspense fallback={null}>
            <ToastStack />
          </Suspense>
        )}
      </QueryClientProvider>
    </I18nProvider>
  );
}
