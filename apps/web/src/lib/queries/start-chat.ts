import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../http/api-client';
import { chatQueryKeys } from '../realtime/chat-socket-shared';
import { toast } from '../ui/toast';

/** GET /api/chats/start/{idOrUsername}/ → {chat_id}: starts, or finds, the one private chat with that person. */
export const startChat = (idOrUsername: string | number): Promise<{ chat_id: string }> =>
  api.get<{ chat_id: string }>(`/chats/start/${encodeURIComponent(String(idOrUsername))}/`);

/**
 * The Message / 'Start Chat' action of a profile: `mutate(usernameOrId)` opens /chats/{chat_id}, or toasts
 * 'Failed to start chat'. `isPending` is the screen's cue for its 'Starting chat...' label.
 */
export function useStartChat() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startChat,
    onSuccess: ({ chat_id }) => {
      void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
      void navigate(`/chats/${encodeURIComponent(chat_id)}`);
    },
    onError: () => {
      toast.error('Failed to start chat');
    },
  });
}
