import type { ChatListItem } from '@parley/protocol';

/** A chat's room: /chats/{chat_id} for a private chat, /groups/{chat_id} for a group (SPEC §2). */
export const chatPath = (chat: Pick<ChatListItem, 'chat_id' | 'is_private'>) =>
  `/${chat.is_private ? 'chats' : 'groups'}/${encodeURIComponent(chat.chat_id)}`;
