import { z } from 'zod';
import { chatDetailSchema, dbIdSchema, messageSchema, reactionSchema, threadSummarySchema } from './chat';
import { MESSAGE_MAX_LENGTH } from './constants';
import { pollInputSchema, pollSchema } from './polls';

// The two socket channels (SPEC §7, DESIGN §6): one discriminated union per direction and channel. The server
// parses what clients send with these, the web client parses what the server sends with them.

const ids = z.array(dbIdSchema).max(500);
const messageIds = z.array(z.number().int());

/** What sending a message asks: a socket's `chat_message` frame, and POST /api/chats/{chat_id}/messages/. */
export const sendFieldsSchema = z.object({
  body: z
    .string()
    .max(MESSAGE_MAX_LENGTH * 4)
    .optional()
    .default(''),
  client_id: z.string().min(1).max(64).optional(),
  file_ids: z.array(dbIdSchema).max(10).optional(),
  /** The id of the message of this chat that this one answers. */
  reply_to: dbIdSchema.optional(),
  /** A reply in the thread under this message of the chat (one not itself in a thread). */
  thread_root: dbIdSchema.optional(),
  /** With thread_root: the reply shows in the main timeline too. */
  also_in_chat: z.boolean().optional(),
  /** No link preview for this message. */
  no_preview: z.boolean().optional(),
  /** The message is a poll (its body may then be empty). */
  poll: pollInputSchema.optional(),
});

/** Frames a client sends on /ws/chatroom/{chat_id}/. */
export const clientFrameSchema = z.discriminatedUnion('type', [
  sendFieldsSchema.extend({ type: z.literal('chat_message') }),
  z.object({ type: z.literal('typing'), is_typing: z.boolean() }),
  /** With thread_root: the reader read these replies of that thread (its unread count; the chat's marks stay). */
  z.object({ type: z.literal('read_messages'), message_ids: ids, thread_root: dbIdSchema.optional() }),
  z.object({ type: z.literal('messages_delivered'), message_ids: ids }),
]);
export type ClientFrame = z.infer<typeof clientFrameSchema>;
/** What a `chat_message` frame asks to send (the socket's and any other way in take the same fields). */
export type SendInput = Omit<Extract<ClientFrame, { type: 'chat_message' }>, 'type'>;

/** Frames a client sends on /ws/notifications/: it acknowledges messages it was told about. */
export const notificationClientFrameSchema = z.object({
  type: z.literal('messages_delivered'),
  chatroom_id: z.string().min(1).max(64),
  message_ids: ids,
});
export type NotificationClientFrame = z.infer<typeof notificationClientFrameSchema>;

/** Frames the server sends on a chat room socket. */
export const serverFrameSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('chat_message'),
    message: messageSchema,
    client_id: z.string().nullable().optional(),
  }),
  z.object({
    type: z.literal('typing'),
    user_id: z.number().int(),
    username: z.string(),
    is_typing: z.boolean(),
  }),
  z.object({ type: z.literal('in_chat_count'), count: z.number().int() }),
  z.object({ type: z.literal('in_chat_users_update'), user_ids: z.array(z.number().int()) }),
  z.object({ type: z.literal('messages_read'), message_ids: messageIds, user_id: z.number().int() }),
  z.object({ type: z.literal('messages_delivered'), message_ids: messageIds }),
  z.object({ type: z.literal('chat_updated'), chat: chatDetailSchema }),
  /** A message's text was edited (the whole message as it now reads). */
  z.object({ type: z.literal('message_updated'), message: messageSchema }),
  z.object({ type: z.literal('message_deleted'), message_id: z.number().int() }),
  /** A thread got a reply: its summary as it now stands, for the root wherever it shows. */
  z.object({ type: z.literal('thread_updated'), root_id: z.number().int(), thread: threadSummarySchema }),
  /** A message's reactions as they now stand (`me` false: each client finds itself in `user_ids`). */
  z.object({
    type: z.literal('reactions_updated'),
    message_id: z.number().int(),
    reactions: z.array(reactionSchema),
  }),
  /** A poll's votes or state changed: the poll as it now stands, `my_votes` those of the socket's reader. */
  z.object({ type: z.literal('poll_updated'), message_id: z.number().int(), poll: pollSchema }),
  /** A private chat's voice message was played by the person it was sent to (`user_id`). */
  z.object({
    type: z.literal('voice_played'),
    message_id: z.number().int(),
    file_id: z.number().int(),
    user_id: z.number().int(),
  }),
  /** The chat's pinned messages changed: their ids as they now stand, newest pin first. */
  z.object({ type: z.literal('pins_updated'), chat_id: z.string(), pinned_ids: messageIds }),
  z.object({
    type: z.literal('error'),
    message: z.string(),
    code: z.string().optional(),
    client_id: z.string().optional(),
  }),
]);
export type ServerFrame = z.infer<typeof serverFrameSchema>;

/** What the notification socket says of a new message in a chat the person is not looking at. */
export const notificationPayloadSchema = z.object({
  sender: z.string(),
  sender_avatar: z.string().nullable(),
  message: z.string(),
  chatroom_id: z.string(),
  is_private: z.boolean(),
  message_id: z.number().int(),
  /** A reply in a thread the person follows: the thread's root. */
  thread_root: z.number().int().nullable().optional(),
  /** The person is mentioned in it (they are told even when they would not be otherwise). */
  mention: z.boolean().optional(),
  /**
   * The person muted this chat: the list and delivery ticks follow, but no browser notification is
   * raised (a mention still is).
   */
  muted: z.boolean().optional(),
});
export type NotificationPayload = z.infer<typeof notificationPayloadSchema>;

/** Frames the server sends on /ws/notifications/. */
export const notificationFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification_count'), count: z.number().int() }),
  z.object({ type: z.literal('new_message'), message: notificationPayloadSchema }),
  /** The person's chat list changed: added to or removed from a group, or a group deleted. */
  z.object({ type: z.literal('chats_changed') }),
  /**
   * Someone the person shares a chat with came online or went offline (`last_seen`: when, or null for someone
   * who hides it). Nobody hears it of a person who hides their online status or with a block between them.
   */
  z.object({
    type: z.literal('presence'),
    user_id: z.number().int(),
    is_online: z.boolean(),
    last_seen: z.string().nullable(),
  }),
  /** A frame the client sent was refused (not JSON, not a notification client frame). */
  z.object({ type: z.literal('error'), message: z.string() }),
]);
export type NotificationFrame = z.infer<typeof notificationFrameSchema>;
