import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { browserAuthStorage, clearSession } from './auth-storage';
import { authStore } from './auth-store';

/**
 * Signs out (server logout, storage cleared, cache dropped) and lands on `to`, a public page. The stored token
 * goes first, so nothing the next page fetches carries it (a dead token's 401 would send the user to /login);
 * the move is committed before the signed-in state ends: were it cleared while a protected screen is still
 * shown, its guard would redirect to /login on its own.
 */
export function useSignOut() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (to = '/') => {
      clearSession(browserAuthStorage);
      await navigate(to, { replace: true, flushSync: true });
      await authStore.getState().logout();
      queryClient.clear();
    },
    [navigate, queryClient],
  );
}
