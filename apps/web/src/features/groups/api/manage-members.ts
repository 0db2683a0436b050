import type { ChatDetail } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { storeGroup } from './group-cache';

/** POST /api/chats/{chat_id}/members/ {members: [username or id]} (admin only) → the group with them in it. */
export const addMembers = (chatId: string, members: (string | number)[]): Promise<ChatDetail> =>
  api.post<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/members/`, { members });

/** DELETE /api/chats/{chat_id}/members/{user_id}/ (admin only; the admin cannot be removed) → the group. */
export const removeMember = (chatId: string, userId: number): Promise<ChatDetail> =>
  api.delete<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/members/${userId}/`);

export const useAddMembers = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (members: (string | number)[]) => addMembers(chatId, members),
    onSuccess: (detail) => storeGroup(queryClient, detail),
  });
};

export const useRemoveMember = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => removeMember(chatId, userId),
    onSuccess: (detail) => storeGroup(queryClient, detail),
  });
};
