import type {
  BlockedList,
  BlockState,
  MutePayload,
  MuteState,
  ReportCreated,
  ReportCreatePayload,
} from '@parley/protocol';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../http/api-client';
import { chatQueryKeys } from '../realtime/chat-socket-shared';
import { useAuth } from '../session/auth-store';

// Blocking, muting and reporting, shared: the profile, the chat and group settings, the room (which
// folds blocked people's messages) and the settings screen all use these, and one feature never imports another.

/** GET /api/users/blocked/ → the people the signed-in person blocked. */
export const getBlocked = (): Promise<BlockedList> => api.get<BlockedList>('/users/blocked/');

export const blockedQueryKey = ['safety', 'blocked'] as const;
export const blockedQueryOptions = () => queryOptions({ queryKey: blockedQueryKey, queryFn: getBlocked });

/** The people the signed-in person blocked (nothing while signed out). */
export function useBlockedPeople() {
  const signedIn = useAuth((s) => s.isAuthenticated);
  return useQuery({ ...blockedQueryOptions(), enabled: signedIn });
}

/** Whether the signed-in person blocked this user (by id, or by username), false until the list has loaded. */
export function useIsBlocked(who: { id?: number | null; username?: string | null }): boolean {
  const signedIn = useAuth((s) => s.isAuthenticated);
  const { id, username } = who;
  const name = username?.toLowerCase();
  const { data } = useQuery({
    ...blockedQueryOptions(),
    enabled: signedIn && (id != null || !!name),
    select: (list) =>
      list.results.some((p) => (id != null && p.id === id) || (!!name && p.username.toLowerCase() === name)),
  });
  return data ?? false;
}

/** POST (block) or DELETE (unblock) /api/users/{username}/block/. */
export const setBlocked = ({
  username,
  blocked,
}: {
  username: string;
  blocked: boolean;
}): Promise<BlockState> => {
  const path = `/users/${encodeURIComponent(username)}/block/`;
  return blocked ? api.post<BlockState>(path) : api.delete<BlockState>(path);
};

/** Blocks or unblocks; the lists, the chats and the profiles that show presence are read again. */
export function useSetBlocked() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBlocked,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: blockedQueryKey });
      void queryClient.invalidateQueries({ queryKey: ['chats'] });
      void queryClient.invalidateQueries({ queryKey: ['profile'] });
    },
  });
}

/** PUT /api/chats/{chat_id}/mute/ {until} (null: always), or DELETE it to unmute. */
export const setMute = ({ chatId, until }: { chatId: string; until: MutePayload['until'] | false }) => {
  const path = `/chats/${encodeURIComponent(chatId)}/mute/`;
  return until === false ? api.delete<MuteState>(path) : api.put<MuteState>(path, { until });
};

export function useSetMute() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setMute,
    onSuccess: (_state, { chatId }) => {
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.detail(chatId) });
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
    },
  });
}

/** POST /api/reports/ → the confirmation. */
export const sendReport = (payload: ReportCreatePayload): Promise<ReportCreated> =>
  api.post<ReportCreated>('/reports/', payload);

export const useSendReport = () => useMutation({ mutationFn: sendReport });
