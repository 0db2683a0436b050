import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { forgetGroup } from './group-cache';

/** DELETE /api/chats/{chat_id}/ (admin only) → 204; the group, its messages and its files are gone. */
export const deleteGroup = (chatId: string): Promise<null> =>
  api.delete<null>(`/chats/${encodeURIComponent(chatId)}/`);

export const useDeleteGroup = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteGroup(chatId),
    onSuccess: () => forgetGroup(queryClient, chatId),
  });
};
