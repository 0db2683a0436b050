import { api } from '../../../lib/http/api-client';

/** PUT (follow: told of its replies) or DELETE (stop) …/messages/{root_id}/follow/ → 204. */
export const setFollowing = (chatId: string, rootId: number, following: boolean): Promise<void> => {
  const path = `/chats/${encodeURIComponent(chatId)}/messages/${rootId}/follow/`;
  return following ? api.put<void>(path) : api.delete<void>(path);
};
