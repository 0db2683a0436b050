import type { GroupInvite } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { inviteLinkKeys } from './get-invite-links';

/** DELETE /api/chats/{chat_id}/invites/{code}/ (admins) → 204; the link answers 404 from then on. */
export const revokeInviteLink = (chatId: string, code: string): Promise<null> =>
  api.delete<null>(`/chats/${encodeURIComponent(chatId)}/invites/${encodeURIComponent(code)}/`);

export const useRevokeInviteLink = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => revokeInviteLink(chatId, code),
    onSuccess: (_, code) => {
      queryClient.setQueryData<GroupInvite[]>(inviteLinkKeys.of(chatId), (old) =>
        old?.filter((link) => link.code !== code),
      );
      void queryClient.invalidateQueries({ queryKey: inviteLinkKeys.of(chatId) });
    },
  });
};
