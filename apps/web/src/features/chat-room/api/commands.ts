import type { ChatCommandList, CommandResult } from '@parley/protocol';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';
import { newClientId } from '../../../lib/realtime/chat-socket';
import { chatQueryKeys } from '../../../lib/realtime/chat-socket-shared';

// Slash commands: the chat's list for the composer's suggestions (read once the text starts with '/'), and a
// command run, whose answer is a message the room hears as any other or a line for this person alone.

const commandsPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}/commands/`;

/** GET …/commands/: the built-ins this person may run there and the commands of the chat's bots. */
export const useChatCommands = (chatId: string, enabled: boolean) =>
  useQuery({
    queryKey: ['chats', 'commands', chatId] as const,
    queryFn: () => api.get<ChatCommandList>(commandsPath(chatId)),
    enabled,
    staleTime: 60_000,
  });

/** POST …/commands/ with the text as typed (and the thread it was typed in). */
export const runCommand = (chatId: string, text: string, threadRoot?: number): Promise<CommandResult> =>
  api.post<CommandResult>(commandsPath(chatId), {
    text,
    client_id: newClientId(),
    ...(threadRoot !== undefined ? { thread_root: threadRoot } : {}),
  });

/** What a command changed that the screens show: the chat's detail (topic, mute) and the chat list. */
export function commandRan(queryClient: QueryClient, chatId: string, left: boolean): void {
  if (left) {
    queryClient.removeQueries({ queryKey: chatQueryKeys.detail(chatId) });
    queryClient.removeQueries({ queryKey: chatQueryKeys.messages(chatId) });
  } else void queryClient.invalidateQueries({ queryKey: chatQueryKeys.detail(chatId), exact: true });
  void queryClient.invalidateQueries({ queryKey: chatQueryKeys.list() });
}
