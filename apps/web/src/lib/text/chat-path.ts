import type { ChatListItem } from '@parley/protocol';

/** A chat's room: /chats/{chat_id} for a private chat, /groups/{chat_id} for a group (SPEC §2). */
export const chatPath = (chat: Pick<ChatListItem, 'chat_id' | 'is_private'>) =>
  `/${chat.is_private ? 'chats' : 'groups'}/${encodeURIComponent(chat.chat_id)}`;

/** The thread under a root message, open beside (or over) its chat's room: {room}/thread/{root id}. */
export const threadPath = (chat: Pick<ChatListItem, 'chat_id' | 'is_private'>, rootId: number) =>
  `${chatPath(chat)}/thread/${rootId}`;
