import type { ChatDetail } from '@parley/protocol';
import type { QueryClient } from '@tanstack/react-query';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

/** A management call answered the group's new state: the settings screen and the room draw it at once. */
export function storeGroup(queryClient: QueryClient, detail: ChatDetail): void {
  queryClient.setQueryData(chatQueryKeys.detail(detail.chat_id), detail);
  void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
}

/** The person is out of the group (left, or deleted it): forget it and refresh the chat list. */
export function forgetGroup(queryClient: QueryClient, chatId: string): void {
  queryClient.removeQueries({ queryKey: chatQueryKeys.detail(chatId) });
  queryClient.removeQueries({ queryKey: chatQueryKeys.messages(chatId) });
  void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
}
