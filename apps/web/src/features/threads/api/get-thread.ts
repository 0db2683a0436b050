import type { ThreadPage } from '@parley/protocol';
import { api } from '../../../lib/http/api-client';

/**
 * GET /api/chats/{chat_id}/messages/{root_id}/thread/?cursor= → the root, a page of its replies (oldest first),
 * the cursor of the newer ones (null on the last page) and whether the reader follows the thread.
 */
export function getThread(chatId: string, rootId: number, cursor?: string | null): Promise<ThreadPage> {
  const query = cursor ? `?${new URLSearchParams({ cursor })}` : '';
  return api.get<ThreadPage>(`/chats/${encodeURIComponent(chatId)}/messages/${rootId}/thread/${query}`);
}
