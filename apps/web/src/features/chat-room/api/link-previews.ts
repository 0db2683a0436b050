import { api } from '../../../lib/http/api-client';

/** DELETE …/messages/{id}/preview/ → 204: the sender takes the preview off; the room hears message_updated. */
export const removeLinkPreview = (chatId: string, messageId: number): Promise<void> =>
  api.delete<void>(`/chats/${encodeURIComponent(chatId)}/messages/${messageId}/preview/`);
