import { z } from 'zod';
import { messageSchema } from './chat';

// Pinned messages: a chat's few messages kept in sight at the top of its room. Anyone in a private chat pins and
// unpins; in a group only its owner and admins do.

/** How many messages one chat may have pinned at once. */
export const MAX_PINS_PER_CHAT = 50;

export const PIN_TEXT = {
  onlyAdmins: 'Only the group admins can pin or unpin messages.',
  tooMany: `A chat can have at most ${MAX_PINS_PER_CHAT} pinned messages. Unpin one first.`,
  /** System lines and replies kept inside a thread are not in the conversation to point at. */
  notPinnable: 'Only messages in the conversation can be pinned.',
} as const;

/** The system line a pin writes in the chat. */
export const pinnedLine = (name: string) => `${name} pinned a message`;

/** PUT / DELETE /api/chats/{chat_id}/pins/{message_id}/: the chat's pins as they now stand, newest pin first. */
export const pinsStateSchema = z.object({
  chat_id: z.string(),
  pinned_ids: z.array(z.number().int()),
});
export type PinsState = z.infer<typeof pinsStateSchema>;

/** GET /api/chats/{chat_id}/pins/: the pinned messages as the history shows them, newest pin first. */
export const pinnedMessagesSchema = z.array(messageSchema);
