import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { authStore } from '../session/auth-store';
import { retryImport } from '../ui/retry-import';
import type { Persistence } from './persisted-queries';

/**
 * Keeps the signed-in person's query cache in IndexedDB: restored when they are signed in, saved as
 * it changes, dropped when they sign out. The store's code loads after the first screen, off the initial bundle.
 */
export function usePersistedQueries(client: QueryClient): void {
  useEffect(() => {
    const persistence = retryImport(() => import('./persisted-queries'));
    let current: { userId: number; running: Promise<Persistence> } | null = null;
    const follow = (userId: number | null) => {
      if (current?.userId === userId) return;
      if (current) {
        const left = current;
        void left.running.then(async (p) => {
          p.stop();
          if (userId === null) await (await persistence).forgetQueries(left.userId);
        });
      }
      current =
        userId === null
          ? null
          : { userId, running: persistence.then((m) => m.persistQueries(client, userId)) };
    };
    follow(authStore.getState().user?.id ?? null);
    const unsubscribe = authStore.subscribe((state) => follow(state.user?.id ?? null));
    return () => {
      unsubscribe();
      void current?.running.then((p) => p.stop());
      current = null;
    };
  }, [client]);
}
