import { z } from 'zod';
import { messageSchema } from './chat';

// Threads: replies under a root message, kept out of the main timeline, and the threads a person follows.

export const THREAD_TEXT = {
  /** A chat_message whose thread_root is not a message of this chat, or is itself a thread reply. */
  badRoot: 'You can only reply in a thread under a message of this chat that is not itself in a thread.',
  badCursor: 'This page of the thread is no longer valid.',
} as const;

export const THREAD_PAGE_SIZE = 50;

const cursorSchema = z.string().regex(/^\d{1,12}$/, THREAD_TEXT.badCursor);

/** GET /api/chats/{chat_id}/messages/{message_id}/thread/?cursor=&limit= */
export const threadQuerySchema = z.object({
  cursor: cursorSchema.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(THREAD_PAGE_SIZE),
});

/** A thread's replies, oldest first; `next_cursor` (null on the last page) asks for the newer ones. */
export const threadPageSchema = z.object({
  root: messageSchema,
  results: z.array(messageSchema),
  next_cursor: z.string().nullable(),
  /** Whether the reader follows the thread (is told of its replies). */
  following: z.boolean(),
});
export type ThreadPage = z.infer<typeof threadPageSchema>;

/** GET /api/threads/?cursor= */
export const threadsQuerySchema = z.object({ cursor: cursorSchema.optional() });

export const THREADS_PAGE_SIZE = 20;
/** How many of a followed thread's newest replies the Threads view shows under its root. */
export const THREAD_LAST_REPLIES = 2;

export const followedThreadSchema = z.object({
  chat_id: z.string(),
  /** The chat as the reader's chat list names it. */
  chat_name: z.string(),
  is_private: z.boolean(),
  root: messageSchema,
  /** Its newest replies, oldest first. */
  last_replies: z.array(messageSchema),
  /** Replies from others the reader has not read. */
  unread_count: z.number().int(),
});
export type FollowedThread = z.infer<typeof followedThreadSchema>;

/** Followed threads, newest activity first. */
export const followedThreadsSchema = z.object({
  results: z.array(followedThreadSchema),
  next_cursor: z.string().nullable(),
});
export type FollowedThreads = z.infer<typeof followedThreadsSchema>;
