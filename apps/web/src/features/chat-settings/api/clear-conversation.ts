import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** POST /api/chats/{chat_id}/clear/ → 204: the messages so far disappear for the caller only. */
export const clearConversation = (chatId: string): Promise<null> =>
  api.post<null>(`/chats/${encodeURIComponent(chatId)}/clear/`);

export const useClearConversation = (chatId: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => clearConversation(chatId),
    onSuccess: () => {
      // The room loads its history afresh; the list's preview and unread count change too.
      queryClient.removeQueries({ queryKey: chatQueryKeys.messages(chatId) });
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
    },
  });
};
