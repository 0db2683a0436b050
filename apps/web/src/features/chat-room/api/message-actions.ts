import type { Message, Reaction } from '@parley/protocol';
import { api } from '../../../lib/http/api-client';

// Edit, delete, earlier versions and reactions of one message. The room learns the outcome from its
// socket frames like every other member, so these only report success or failure.

const messagePath = (chatId: string, messageId: number) =>
  `/chats/${encodeURIComponent(chatId)}/messages/${messageId}/`;

/** PATCH …/messages/{id}/ {body} → the edited message. */
export const editMessage = (chatId: string, messageId: number, body: string): Promise<Message> =>
  api.request<Message>(messagePath(chatId, messageId), { method: 'PATCH', body: { body } });

/** DELETE …/messages/{id}/ → 204: deleted for everyone. */
export const deleteMessage = (chatId: string, messageId: number): Promise<void> =>
  api.delete<void>(messagePath(chatId, messageId));

export interface EarlierVersion {
  body: string;
  /** When this version was replaced. */
  edited_at: string;
}

/** GET …/messages/{id}/edits/ → the versions before the current text, oldest first. */
export const getEdits = (chatId: string, messageId: number): Promise<EarlierVersion[]> =>
  api.get<EarlierVersion[]>(`${messagePath(chatId, messageId)}edits/`);

/** POST …/messages/{id}/forward/ {to_chat_ids} → the copies, one per chat (each arrives in its room too). */
export const forwardMessage = (chatId: string, messageId: number, toChatIds: string[]): Promise<Message[]> =>
  api.post<Message[]>(`${messagePath(chatId, messageId)}forward/`, { to_chat_ids: toChatIds });

/** PUT (add) or DELETE (take back) this reader's reaction → the message's reactions as they now stand. */
export const setReaction = (
  chatId: string,
  messageId: number,
  emoji: string,
  on: boolean,
): Promise<{ message_id: number; reactions: Reaction[] }> => {
  const path = `${messagePath(chatId, messageId)}reactions/${encodeURIComponent(emoji)}/`;
  return on ? api.put(path) : api.delete(path);
};
