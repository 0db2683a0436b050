import type { Message, PinsState } from '@parley/protocol';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/http/api-client';

// A chat's pinned messages: read when its room opens and again whenever the room hears pins_updated (or
// reconnects), pinned and unpinned from the message menu.

export const pinQueryKeys = {
  list: (chatId: string) => ['pins', chatId] as const,
};

const pinsPath = (chatId: string) => `/chats/${encodeURIComponent(chatId)}/pins/`;

/** GET …/pins/ → the pinned messages, newest pin first. */
export const getPins = (chatId: string): Promise<Message[]> => api.get<Message[]>(pinsPath(chatId));

export const usePins = (chatId: string) =>
  useQuery({ queryKey: pinQueryKeys.list(chatId), queryFn: () => getPins(chatId) });

/** PUT (pin) or DELETE (unpin) …/pins/{message_id}/ → the pinned ids as they now stand; the list is read again. */
export async function setPinned(
  queryClient: QueryClient,
  chatId: string,
  messageId: number,
  on: boolean,
): Promise<PinsState> {
  const path = `${pinsPath(chatId)}${messageId}/`;
  const state = await (on ? api.put<PinsState>(path) : api.delete<PinsState>(path));
  pinsChanged(queryClient, chatId);
  return state;
}

/** The chat's pins changed (pins_updated, a reconnection, the reader's own pin): read them again. */
export const pinsChanged = (queryClient: QueryClient, chatId: string) =>
  void queryClient.invalidateQueries({ queryKey: pinQueryKeys.list(chatId), exact: true });

/** A message was edited: a pin of it shows the new text (the pins are not read again for it). */
export function pinEdited(queryClient: QueryClient, chatId: string, message: Message): void {
  queryClient.setQueryData<Message[]>(pinQueryKeys.list(chatId), (old) =>
    old?.some((m) => m.id === message.id) ? old.map((m) => (m.id === message.id ? message : m)) : old,
  );
}
