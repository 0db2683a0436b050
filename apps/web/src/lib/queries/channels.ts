import type { ChatDetail } from '@parley/protocol';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../http/api-client';
import { chatQueryKeys } from '../realtime/chat-socket-shared';

// Joining a public group (a channel), shared: the channel directory's Join button and the 'Join channel' bar of
// a channel's room both join, and one feature never imports another.

export const channelQueryKeys = {
  all: () => ['channels'] as const,
  directory: (q: string) => ['channels', 'directory', q] as const,
};

/** POST /api/chats/{chat_id}/join/ → the chat as its new member sees it (joining twice changes nothing). */
export const joinChannel = (chatId: string): Promise<ChatDetail> =>
  api.post<ChatDetail>(`/chats/${encodeURIComponent(chatId)}/join/`);

/**
 * Joins a channel: the room's detail becomes the member's at once (its bar turns into the composer), and the
 * chat list and the directory's 'Joined' marks are read again.
 */
export function useJoinChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: joinChannel,
    onSuccess: (detail, chatId) => {
      queryClient.setQueryData<ChatDetail>(chatQueryKeys.detail(chatId), detail);
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
      void queryClient.invalidateQueries({ queryKey: channelQueryKeys.all() });
    },
  });
}
