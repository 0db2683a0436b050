import { TOAST_AUTO_CLOSE_MS } from '@parley/protocol';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastContainer } from 'react-toastify';
import { queryClient } from './query-client';

/** App-wide providers: the query cache and the toast stack (SPEC §4: top-right, 5000 ms, Alt+T). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <ToastContainer position="top-right" autoClose={TOAST_AUTO_CLOSE_MS} newestOnTop limit={4} />
    </QueryClientProvider>
  );
}
