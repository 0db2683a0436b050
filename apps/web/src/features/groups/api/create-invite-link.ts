import type { GroupInvite, GroupInviteCreate } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { inviteLinkKeys } from './get-invite-links';

/** POST /api/chats/{chat_id}/invites/ {expires_in_hours?, max_uses?} → the new link (neither: it lasts). */
export const createInviteLink = (chatId: string, limits: GroupInviteCreate): Promise<GroupInvite> =>
  api.post<GroupInvite>(`/chats/${encodeURIComponent(chatId)}/invites/`, limits);

export const useCreateInviteLink = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (limits: GroupInviteCreate) => createInviteLink(chatId, limits),
    // The new link goes first, as the list orders them; the list is read again behind it.
    onSuccess: (link) => {
      queryClient.setQueryData<GroupInvite[]>(inviteLinkKeys.of(chatId), (old) => [link, ...(old ?? [])]);
      void queryClient.invalidateQueries({ queryKey: inviteLinkKeys.of(chatId) });
    },
  });
};
