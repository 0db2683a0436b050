import { type SessionInfo, sessionListSchema } from '@parley/protocol';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

export const sessionsQueryKey = ['users', 'sessions'] as const;

/** GET /api/users/sessions/ → the person's signed-in sessions, newest first, theirs marked current. */
export const listSessions = async (): Promise<SessionInfo[]> =>
  sessionListSchema.parse(await api.get('/users/sessions/')).results;

export const useSessions = () => useQuery({ queryKey: sessionsQueryKey, queryFn: listSessions });
