import { createStore } from 'zustand/vanilla';

// What the two socket channels share with the screens they refresh: the chat caches' query keys (so the room
// and the notification channel can mark the chat list stale without importing the chats feature) and which
// chat room is on screen (so no browser notification pops up for the chat being read).

export const chatQueryKeys = {
  list: () => ['chats', 'list'] as const,
  detail: (chatId: string) => ['chats', 'detail', chatId] as const,
  messages: (chatId: string) => ['chats', 'messages', chatId] as const,
};

export const activeChatRoom = createStore<{ chatId: string | null }>()(() => ({ chatId: null }));

/** The room screen calls this on mount and returns its result as the cleanup. */
export function enterChatRoom(chatId: string): () => void {
  activeChatRoom.setState({ chatId });
  return () => {
    if (activeChatRoom.getState().chatId === chatId) activeChatRoom.setState({ chatId: null });
  };
}
