import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { bodyField, isApiError } from '../../../lib/http/api-error';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** POST /api/chats/group/new/ {group_name} → {chat_id}; the creator is the group's admin. */
export const createGroup = (groupName: string): Promise<{ chat_id: string }> =>
  api.post<{ chat_id: string }>('/chats/group/new/', { group_name: groupName });

export const useCreateGroup = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() }),
  });
};

/** SPEC §8, group creation toast: the server's `error` field, else `detail`, else 'Error happend' (sic). */
export function createGroupErrorText(error: unknown): string {
  if (isApiError(error)) {
    for (const key of ['error', 'detail']) {
      const value = bodyField(error.body, key);
      if (typeof value === 'string' && value.trim()) return value;
    }
  }
  return 'Error happend';
}
