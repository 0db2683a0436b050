import type { SavedInChat, SavedPage } from '@parley/protocol';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { api } from '../http/api-client';

// A person's saved messages, shared by the room's menu (Save, Unsave) and the Saved messages view: the calls
// and their caches. A save or an unsave changes the room's ids at once and marks the view's pages stale.

export const savedQueryKeys = {
  all: () => ['saved'] as const,
  list: () => ['saved', 'list'] as const,
  /** Which of a chat's messages the person saved. */
  inChat: (chatId: string) => ['saved', 'chat', chatId] as const,
};

/** GET /api/chats/{chat_id}/saved/ → which of the chat's messages the person saved. */
export const getSavedInChat = (chatId: string): Promise<SavedInChat> =>
  api.get<SavedInChat>(`/chats/${encodeURIComponent(chatId)}/saved/`);

/** PUT (save) or DELETE (unsave) /api/saved/{message_id}/, then the caches that show it. */
export async function setSaved(
  queryClient: QueryClient,
  message: { id: number; chatroom: string },
  on: boolean,
): Promise<void> {
  const path = `/saved/${message.id}/`;
  await (on ? api.put<void>(path) : api.delete<void>(path));
  queryClient.setQueryData<SavedInChat>(savedQueryKeys.inChat(message.chatroom), (old) => {
    if (!old) return old;
    const others = old.message_ids.filter((id) => id !== message.id);
    return { message_ids: on ? [message.id, ...others] : others };
  });
  // An unsaved message leaves the view's pages at once; they are read again either way.
  if (!on)
    queryClient.setQueryData<InfiniteData<SavedPage>>(savedQueryKeys.list(), (old) =>
      old
        ? {
            ...old,
            pages: old.pages.map((p) => ({
              ...p,
              results: p.results.filter((r) => r.message.id !== message.id),
            })),
          }
        : old,
    );
  void queryClient.invalidateQueries({ queryKey: savedQueryKeys.list() });
}
