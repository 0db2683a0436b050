import type { ChatDetail } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { storeGroup } from './group-cache';

/** POST /api/chats/{chat_id}/transfer/ {user_id} (the owner only, who stays as an admin) → the group. */
export const transferOwnership = (chatId: string, userId: number): Promise<ChatDetail> =>
  api.post<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/transfer/`, { user_id: userId });

export const useTransferOwnership = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => transferOwnership(chatId, userId),
    onSuccess: (detail) => storeGroup(queryClient, detail),
  });
};
