import { z } from 'zod';

/** Chats a message may be forwarded to at once. */
export const MAX_FORWARD_TARGETS = 5;

/** `POST /api/chats/{chat_id}/messages/{message_id}/forward/`: the chats to send a copy to (1..5, by chat_id). */
export const forwardRequestSchema = z.object({
  to_chat_ids: z
    .array(z.string().min(1).max(64))
    .min(1, 'Choose at least one chat.')
    .max(MAX_FORWARD_TARGETS, `Forward to at most ${MAX_FORWARD_TARGETS} chats at once.`),
});
export type ForwardRequest = z.infer<typeof forwardRequestSchema>;

export const FORWARD_TEXT = {
  deleted: 'A deleted message cannot be forwarded.',
} as const;
