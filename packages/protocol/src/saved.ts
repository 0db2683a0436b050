import { z } from 'zod';
import { messageSchema } from './chat';

// Saved messages: a person's own bookmarks of messages in chats they are in, seen by nobody else.

export const SAVED_PAGE_SIZE = 20;

export const SAVED_TEXT = {
  badCursor: 'This page of saved messages is no longer valid.',
} as const;

/** GET /api/saved/?cursor= */
export const savedQuerySchema = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,12}$/, SAVED_TEXT.badCursor)
    .optional(),
});

export const savedMessageSchema = z.object({
  message: messageSchema,
  chat_id: z.string(),
  /** The chat as the person's chat list names it. */
  chat_name: z.string(),
  /** Whether the chat is a private one: its room's path (/chats/… or /groups/…) says so. */
  is_private: z.boolean(),
  saved_at: z.string(),
});
export type SavedMessage = z.infer<typeof savedMessageSchema>;

/**
 * A page of saved messages, newest saved first; `next_cursor` (null on the last page) asks for older ones. A
 * message deleted for everyone, or of a chat the person has left, is not listed.
 */
export const savedPageSchema = z.object({
  results: z.array(savedMessageSchema),
  next_cursor: z.string().nullable(),
});
export type SavedPage = z.infer<typeof savedPageSchema>;

/** GET /api/chats/{chat_id}/saved/: which of the chat's messages the person saved (the room's Save or Unsave). */
export const savedInChatSchema = z.object({ message_ids: z.array(z.number().int()) });
export type SavedInChat = z.infer<typeof savedInChatSchema>;
