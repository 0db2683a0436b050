import type { ChatDetail } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** POST /api/invites/{code}/accept/ → the group as its new member sees it (a member already in it uses nothing). */
export const acceptInvite = (code: string): Promise<ChatDetail> =>
  api.post<ChatDetail>(`/invites/${encodeURIComponent(code)}/accept/`);

/** Joins through the link: the room opens from the group's detail, and the chat list is read again. */
export function useAcceptInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptInvite,
    onSuccess: (detail) => {
      queryClient.setQueryData<ChatDetail>(chatQueryKeys.detail(detail.chat_id), detail);
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
    },
  });
}
