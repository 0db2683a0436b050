import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from './constants';

// Chats over HTTP and the two socket channels (SPEC §3, §7; DESIGN §6). One discriminated union per direction.

export type FileType = 'image' | 'video' | 'pdf' | 'text' | 'other';
export interface ChatFile {
  id: number;
  type: FileType;
  file: string;
  name?: string;
  size?: number;
  thumbnail?: string | null;
}

export interface Message {
  id: number;
  /** Sender's user id; null for a system line or a deleted account. */
  sender: number | null;
  sender_name: string;
  sender_username: string;
  sender_avatar: string | null;
  body: string;
  files: ChatFile[];
  is_read: boolean;
  is_delivered: boolean;
  is_sent: boolean;
  is_error: boolean;
  /** 'system' for lines such as 'Ada added Grace'. */
  kind: 'user' | 'system';
  timestamp: string;
  /** The chat's public chat_id. */
  chatroom: string;
  client_id?: string | null;
}

export interface ChatListItem {
  id: number;
  chat_id: string;
  is_private: boolean;
  display_name: string;
  avatar: string | null;
  other_user: {
    id: number | null;
    username: string;
    avatar: string | null;
    is_blue_verified: boolean;
  } | null;
  is_online: boolean;
  member_count: number;
  last_message: string | null;
  last_message_time: string | null;
  is_admin: boolean;
  unread_count: number;
}

export interface ChatMember {
  id: number | null;
  username: string;
  displayname: string;
  name: string;
  avatar: string | null;
  is_blue_verified: boolean;
  last_seen: string | null;
  is_online: boolean;
  role: 'admin' | 'member';
  profile: { name: string; avatar: string | null };
}

export interface ChatDetail {
  id: number;
  chat_id: string;
  is_private: boolean;
  group_name: string;
  display_name: string;
  description: string;
  avatar: string | null;
  chat_avatar: string | null;
  members: ChatMember[];
  admin: { id: number; username: string; profile: { name: string } } | null;
}

export const DELETED_USERNAME = 'deleted_user';
export const DELETED_DISPLAY_NAME = 'Deleted User';

export const groupCreateSchema = z.object({
  group_name: z.string().trim().min(1, 'Group name is required.').max(100, 'Group name is too long.'),
});

/** Largest id a stored row can have (PostgreSQL `serial`); anything larger names nothing. */
export const MAX_DB_ID = 2_147_483_647;
const dbId = z.number().int().positive().max(MAX_DB_ID);

export const groupUpdateSchema = z.object({
  group_name: z.string().trim().min(1, 'Group name is required.').max(100, 'Group name is too long.'),
  description: z.string().trim().max(500, 'Description is too long.').optional(),
});

/** People to add to a group: usernames or user ids (`username` or `user_id` alone also work). */
export const memberAddSchema = z
  .object({
    members: z
      .array(z.union([z.string().trim().min(1).max(150), dbId]))
      .max(50)
      .optional(),
    username: z.string().trim().min(1).max(150).optional(),
    user_id: dbId.optional(),
  })
  .transform((v) => ({
    members: [...(v.members ?? []), ...(v.username ? [v.username] : []), ...(v.user_id ? [v.user_id] : [])],
  }))
  .refine((v) => v.members.length > 0, { message: 'Name at least one person to add.' });

export const messagesQuerySchema = z.object({
  before: z.coerce.number().int().positive().max(MAX_DB_ID).optional(),
  after: z.coerce.number().int().min(0).max(MAX_DB_ID).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

const ids = z.array(dbId).max(500);

/** Frames a client sends on /ws/chatroom/{chat_id}/. */
export const clientFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('chat_message'),
    body: z
      .string()
      .max(MESSAGE_MAX_LENGTH * 4)
      .optional()
      .default(''),
    client_id: z.string().min(1).max(64).optional(),
    file_ids: z.array(dbId).max(10).optional(),
  }),
  z.object({ type: z.literal('typing'), is_typing: z.boolean() }),
  z.object({ type: z.literal('read_messages'), message_ids: ids }),
  z.object({ type: z.literal('messages_delivered'), message_ids: ids }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;

/** Frames a client sends on /ws/notifications/: it acknowledges messages it was told about. */
export const notificationClientFrameSchema = z.object({
  type: z.literal('messages_delivered'),
  chatroom_id: z.string().min(1).max(64),
  message_ids: ids,
});
export type NotificationClientFrame = z.infer<typeof notificationClientFrameSchema>;

/** Frames the server sends on a chat room socket. */
export type ServerFrame =
  | { type: 'chat_message'; message: Message; client_id?: string | null }
  | { type: 'typing'; user_id: number; username: string; is_typing: boolean }
  | { type: 'in_chat_count'; count: number }
  | { type: 'in_chat_users_update'; user_ids: number[] }
  | { type: 'messages_read'; message_ids: number[]; user_id: number }
  | { type: 'messages_delivered'; message_ids: number[] }
  | { type: 'chat_updated'; chat: ChatDetail }
  | { type: 'error'; message: string; code?: string; client_id?: string };

export interface NotificationPayload {
  sender: string;
  sender_avatar: string | null;
  message: string;
  chatroom_id: string;
  is_private: boolean;
  message_id: number;
}

/** Frames the server sends on /ws/notifications/. */
export type NotificationFrame =
  | { type: 'notification_count'; count: number }
  | { type: 'new_message'; message: NotificationPayload }
  /** The person's chat list changed: added to or removed from a group, or a group deleted. */
  | { type: 'chats_changed' };

/** Error texts the server puts in `error` frames. */
export const SOCKET_ERRORS = {
  invalidFormat: 'Invalid message format',
  tooLarge: 'Message too large',
  blank: 'Message cannot be empty',
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
  rateLimited: 'You are sending messages too fast. Please slow down.',
  failed: 'Failed to send message. Please try again.',
} as const;

/** Text the client shows for socket problems (SPEC §8). */
export const SOCKET_CLIENT_TEXT = {
  connectionError: 'Connection error',
  invalidFormat: 'Invalid message format',
  notConnected: 'Not connected to chat',
  authFailed: 'Authentication failed',
  notFound: 'Chat room not found',
  notificationError: 'Notification connection error',
  notificationInvalid: 'Invalid notification message format',
} as const;
