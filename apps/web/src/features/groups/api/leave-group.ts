import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { forgetGroup } from './group-cache';

/** POST /api/chats/{chat_id}/leave/ → 204. An admin who leaves hands the group on; an empty group is deleted. */
export const leaveGroup = (chatId: string): Promise<null> =>
  api.post<null>(`/chats/${encodeURIComponent(chatId)}/leave/`);

export const useLeaveGroup = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => leaveGroup(chatId),
    onSuccess: () => forgetGroup(queryClient, chatId),
  });
};
