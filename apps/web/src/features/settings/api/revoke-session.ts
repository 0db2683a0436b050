import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { sessionsQueryKey } from './list-sessions';

/** DELETE /api/users/sessions/{id}/ → 204; that session is signed out and its sockets closed. */
export const revokeSession = (id: number): Promise<unknown> => api.delete(`/users/sessions/${id}/`);

export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
