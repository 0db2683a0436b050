import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useMyChats } from '../../../lib/queries/chat-list-query';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/**
 * Keeps the group's settings true while they are open. The settings have no room socket, so the room's
 * chat_updated never reaches them; what reaches this browser is chats_changed on the notification socket (sent
 * to the people a role change, a transfer, a join or a removal concerns), which reads the chat list again. Each
 * new answer of the list reads the group again too: a member made an admin sees the admins' screen at once.
 */
export function useGroupFollowsChatList(chatId: string): void {
  const queryClient = useQueryClient();
  const listAnsweredAt = useMyChats().dataUpdatedAt;
  const seen = useRef(listAnsweredAt);
  useEffect(() => {
    const first = seen.current === 0;
    if (listAnsweredAt === seen.current) return;
    seen.current = listAnsweredAt;
    // The list's first answer came with the group's own: nothing has changed since.
    if (!first) void queryClient.invalidateQueries({ queryKey: chatQueryKeys.detail(chatId), exact: true });
  }, [listAnsweredAt, chatId, queryClient]);
}
