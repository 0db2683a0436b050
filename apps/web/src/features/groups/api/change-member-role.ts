import type { ChatDetail } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { storeGroup } from './group-cache';

export interface RoleChange {
  userId: number;
  role: 'admin' | 'member';
}

/** PATCH /api/chats/{chat_id}/members/{user_id}/ {role} (owner or admins; the owner stays) → the group. */
export const changeMemberRole = (chatId: string, { userId, role }: RoleChange): Promise<ChatDetail> =>
  api.request<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/members/${userId}/`, {
    method: 'PATCH',
    body: { role },
  });

export const useChangeMemberRole = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RoleChange) => changeMemberRole(chatId, change),
    onSuccess: (detail) => storeGroup(queryClient, detail),
  });
};
