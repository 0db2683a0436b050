import { sessionsRevokedSchema } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { sessionsQueryKey } from './list-sessions';

/** POST /api/users/sessions/revoke-others/ → {revoked}: every session but this one is signed out. */
export const revokeOtherSessions = async (): Promise<number> =>
  sessionsRevokedSchema.parse(await api.post('/users/sessions/revoke-others/')).revoked;

export function useRevokeOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
