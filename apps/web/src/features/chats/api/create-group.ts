import type { GroupCreate } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { bodyField, isApiError } from '../../../lib/http/api-error';
import { channelQueryKeys } from '../../../lib/queries/channels';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/**
 * POST /api/chats/group/new/ {group_name, visibility, description, posting} → {chat_id}; the creator owns the
 * group. A public group is listed in the channel directory.
 */
export const createGroup = (group: GroupCreate): Promise<{ chat_id: string }> =>
  api.post<{ chat_id: string }>('/chats/group/new/', group);

export const useCreateGroup = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: (_answer, group) => {
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
      if (group.visibility === 'public')
        void queryClient.invalidateQueries({ queryKey: channelQueryKeys.all() });
    },
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
