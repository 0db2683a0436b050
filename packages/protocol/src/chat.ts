import { z } from 'zod';
import { GROUP_NAME_MAX_LENGTH } from './constants';
import { MSG } from './messages';
import { pollSchema } from './polls';

// Chats over HTTP and the two socket channels (SPEC §3, §7; DESIGN §6). One discriminated union per direction.

const nullableString = z.string().nullable();

/** 'public': listed in the directory and open to join; 'private': members only, invisible to others. */
export const visibilitySchema = z.enum(['private', 'public']);
export type Visibility = z.infer<typeof visibilitySchema>;

/** 'admins': an announcement channel, where only the owner and the admins post. */
export const postingSchema = z.enum(['everyone', 'admins']);
export type Posting = z.infer<typeof postingSchema>;

/** A member's role: one owner per group, admins manage it with the owner; a private chat's two are members. */
export const memberRoleSchema = z.enum(['owner', 'admin', 'member']);
export type MemberRole = z.infer<typeof memberRoleSchema>;

/** The owner counts as an admin wherever admin rights are checked. */
export const isAdminRole = (role: string | null | undefined): boolean => role === 'owner' || role === 'admin';

export const DESCRIPTION_MAX_LENGTH = 500;
const descriptionSchema = z.string().trim().max(DESCRIPTION_MAX_LENGTH, 'Description is too long.');

/** A file sent with a message (SPEC §3 `files`). */
export const fileTypeSchema = z.enum(['image', 'video', 'audio', 'pdf', 'text', 'other']);
export type FileType = z.infer<typeof fileTypeSchema>;
export const chatFileSchema = z.object({
  id: z.number().int(),
  type: fileTypeSchema,
  file: z.string(),
  name: z.string().optional(),
  size: z.number().int().optional(),
  thumbnail: nullableString.optional(),
  /** 'voice': recorded in Parley as a voice message; absent for any other file. */
  kind: z.enum(['voice']).optional(),
  /** An audio file's length: a voice message's as recorded, another's as read from the file when it could be. */
  duration_ms: z.number().int().optional(),
  /** A voice message's 64 peaks, 0..255, for its bars. */
  waveform: z.array(z.number().int()).optional(),
  /** A voice message in a private chat: whether the person it was sent to has played it. */
  played: z.boolean().optional(),
});
export type ChatFile = z.infer<typeof chatFileSchema>;

/** The quoted message a reply answers; `body` cut to REPLY_QUOTE_LENGTH characters. */
export const replyQuoteSchema = z.object({
  id: z.number().int(),
  sender_name: z.string(),
  sender_id: z.number().int().nullish(),
  body: z.string(),
  is_deleted: z.boolean(),
});
export type ReplyQuote = z.infer<typeof replyQuoteSchema>;

/**
 * One emoji's reactions on a message. `user_ids` says who reacted; `me` is whether the reader did (in HTTP
 * answers; a room frame goes to every member alike, so clients compute it from `user_ids`).
 */
export const reactionSchema = z.object({
  emoji: z.string(),
  count: z.number().int(),
  me: z.boolean(),
  user_ids: z.array(z.number().int()),
});
export type Reaction = z.infer<typeof reactionSchema>;

/** A thread under its root message: the root's author and each replier are its participants, first come first. */
export const threadSummarySchema = z.object({
  reply_count: z.number().int(),
  last_reply_at: z.string(),
  participant_ids: z.array(z.number().int()),
});
export type ThreadSummary = z.infer<typeof threadSummarySchema>;

/**
 * What a message's first web address points to, fetched by the server after the message was stored. The picture
 * is a thumbnail Parley made and serves itself (pages are never hot-linked).
 */
export const linkPreviewSchema = z.object({
  url: z.string(),
  title: nullableString,
  description: nullableString,
  site_name: nullableString,
  image: z.object({ url: z.string(), width: z.number().int(), height: z.number().int() }).nullable(),
});
export type LinkPreview = z.infer<typeof linkPreviewSchema>;
export const LINK_PREVIEW_TEXT = {
  notYours: 'You can only remove the preview of your own message.',
} as const;

/**
 * A message as every answer and frame carries it. The fields are in the order the server builds them: the HTTP
 * history page is serialised from this schema's JSON Schema (fast-json-stringify), so a field added here is
 * served everywhere at once.
 */
export const messageSchema = z.object({
  id: z.number().int(),
  /** Sender's user id; null for a system line or a deleted account. */
  sender: z.number().int().nullable(),
  sender_name: z.string(),
  sender_username: z.string(),
  sender_avatar: nullableString,
  /** The sender is a bot (a 'Bot' badge beside the name). */
  sender_is_bot: z.boolean().optional(),
  /** Posted by an incoming webhook, named in sender_name (an 'App' badge); sender is then null. */
  sender_is_app: z.boolean().optional(),
  body: z.string(),
  files: z.array(chatFileSchema),
  is_read: z.boolean(),
  is_delivered: z.boolean(),
  is_sent: z.boolean(),
  is_error: z.boolean(),
  /** 'system' for lines such as 'Ada added Grace'. */
  kind: z.enum(['user', 'system']),
  timestamp: z.string(),
  /** The chat's public chat_id. */
  chatroom: z.string(),
  client_id: nullableString.optional(),
  /** When the text was last edited. */
  edited_at: nullableString,
  /** Deleted for everyone: `body` is '' and `files` [] wherever the message is shown. */
  is_deleted: z.boolean(),
  reply_to: replyQuoteSchema.nullable(),
  reactions: z.array(reactionSchema),
  /** The user ids of the members the body mentions with @username. */
  mentions: z.array(z.number().int()),
  /** The root of the thread this message replies in; null in the main timeline. */
  thread_root: z.number().int().nullable().optional(),
  /** A thread reply also sent to the chat: it shows in the main timeline too. */
  also_in_chat: z.boolean().optional(),
  /** On a root: its thread; null while it has no replies. */
  thread: threadSummarySchema.nullable().optional(),
  /** A copy forwarded from another message (which one, and from where, is never told). */
  forwarded: z.boolean().optional(),
  /** The preview of the body's first link; null while there is none (or it was removed). */
  link_preview: linkPreviewSchema.nullable().optional(),
  /** A poll's question, answers and counts as this reader sees them; null for any other message. */
  poll: pollSchema.nullable().optional(),
});
export type Message = z.infer<typeof messageSchema>;

export const chatListItemSchema = z.object({
  id: z.number().int(),
  chat_id: z.string(),
  is_private: z.boolean(),
  display_name: z.string(),
  avatar: nullableString,
  other_user: z
    .object({
      id: z.number().int().nullable(),
      username: z.string(),
      avatar: nullableString,
      is_blue_verified: z.boolean(),
    })
    .nullable(),
  is_online: z.boolean(),
  member_count: z.number().int(),
  last_message: nullableString,
  last_message_time: nullableString,
  /**
   * When Parley, not a person, wrote `last_message`: 'system' for a system line ('Ada added Grace', English as
   * stored), 'deleted' for the deleted message's placeholder; absent for what a person wrote. The app shows
   * these two in the reader's language.
   */
  last_message_kind: z.enum(['system', 'deleted']).optional(),
  /** The files of the last message (how many, the first one's name), so a files-only message previews; null without. */
  last_message_files: z
    .object({
      count: z.number().int(),
      name: z.string(),
      /** 'voice' when the first file is a voice message: the list says so rather than its file name. */
      kind: z.literal('voice').optional(),
    })
    .nullable()
    .optional(),
  is_admin: z.boolean(),
  unread_count: z.number().int(),
  /**
   * Unread replies in the threads of this chat the reader follows, sent only to their thread (not in
   * unread_count); counted even when the chat is muted, as the notification total counts them.
   */
  thread_unread_count: z.number().int().optional(),
  /** The reader muted this chat: until `muted_until`, or always when that is null. */
  muted: z.boolean().optional(),
  muted_until: nullableString.optional(),
});
export type ChatListItem = z.infer<typeof chatListItemSchema>;

export const chatMemberSchema = z.object({
  id: z.number().int().nullable(),
  username: z.string(),
  displayname: z.string(),
  name: z.string(),
  avatar: nullableString,
  is_blue_verified: z.boolean(),
  /** A bot (a 'Bot' badge beside the name); absent for people. */
  is_bot: z.boolean().optional(),
  last_seen: nullableString,
  is_online: z.boolean(),
  role: memberRoleSchema,
  profile: z.object({ name: z.string(), avatar: nullableString }),
});
export type ChatMember = z.infer<typeof chatMemberSchema>;

export const chatDetailSchema = z.object({
  id: z.number().int(),
  chat_id: z.string(),
  is_private: z.boolean(),
  group_name: z.string(),
  display_name: z.string(),
  description: z.string(),
  /** A group's: public groups are listed and open to join; 'admins' makes it an announcement channel. */
  visibility: visibilitySchema,
  posting: postingSchema,
  avatar: nullableString,
  chat_avatar: nullableString,
  members: z.array(chatMemberSchema),
  /** The group's owner. */
  admin: z
    .object({ id: z.number().int(), username: z.string(), profile: z.object({ name: z.string() }) })
    .nullable(),
  /** False when the reader previews a public group they have not joined (GET /api/chats/{chat_id}/ only). */
  is_member: z.boolean().optional(),
  /** For the reader who asked (GET /api/chats/{chat_id}/ only): their unread messages and the first of them. */
  unread_count: z.number().int().optional(),
  first_unread_id: z.number().int().nullable().optional(),
  /** The reader's mute of this chat (GET /api/chats/{chat_id}/ only), as in the chat list. */
  muted: z.boolean().optional(),
  muted_until: nullableString.optional(),
});
export type ChatDetail = z.infer<typeof chatDetailSchema>;

const groupNameSchema = z
  .string()
  .trim()
  .min(1, 'Group name is required.')
  .max(GROUP_NAME_MAX_LENGTH, MSG.groupNameTooLong);

export const groupCreateSchema = z.object({
  group_name: groupNameSchema,
  visibility: visibilitySchema.default('private'),
  description: descriptionSchema.default(''),
  posting: postingSchema.default('everyone'),
});
export type GroupCreate = z.infer<typeof groupCreateSchema>;

/** Largest id a stored row can have (PostgreSQL `serial`); anything larger names nothing. */
export const MAX_DB_ID = 2_147_483_647;
/** A stored row id as a client may name it. */
export const dbIdSchema = z.number().int().positive().max(MAX_DB_ID);
const dbId = dbIdSchema;

/** PATCH /api/chats/{chat_id}/: any of the group's fields. */
export const groupUpdateSchema = z.object({
  group_name: groupNameSchema.optional(),
  description: descriptionSchema.optional(),
  visibility: visibilitySchema.optional(),
  posting: postingSchema.optional(),
});
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;

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
  /** A page of `limit` consecutive messages with this one in the middle. */
  around: z.coerce.number().int().positive().max(MAX_DB_ID).optional(),
  before: z.coerce.number().int().positive().max(MAX_DB_ID).optional(),
  after: z.coerce.number().int().min(0).max(MAX_DB_ID).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
