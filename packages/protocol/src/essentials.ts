import { z } from 'zod';
import { MESSAGE_MAX_LENGTH } from './constants';

// Edits, deletions, reactions and mentions: the rules both sides apply.

/** Shown in place of a message deleted for everyone, in the room and as the chat list's preview. */
export const DELETED_MESSAGE_TEXT = 'This message was deleted';

export const MESSAGE_TEXT = {
  blank: 'Message cannot be empty',
  tooLong: `Message must be at most ${MESSAGE_MAX_LENGTH} characters`,
  notYours: 'You can only edit your own messages.',
  cannotDelete: 'You can only delete your own messages.',
  deleted: 'This message was deleted.',
  notFound: 'Message not found.',
  badReply: 'You can only reply to a message in this chat.',
  badEmoji: 'A reaction must be a single emoji.',
  tooManyEmoji: 'A message can have at most 20 different reactions.',
} as const;

/** PATCH …/messages/{id}/: the same body rules as sending. */
export const messageEditSchema = z.object({
  body: z.string().trim().min(1, MESSAGE_TEXT.blank).max(MESSAGE_MAX_LENGTH, MESSAGE_TEXT.tooLong),
});

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
const pictographic = /\p{Extended_Pictographic}/u;
const flag = /^\p{Regional_Indicator}{2}$/u;
const keycap = /^[#*0-9]\uFE0F?\u20E3$/u;

/** One emoji grapheme: a pictograph (with its skin tone, ZWJ sequence or presentation selector), a flag or a keycap. */
export function isSingleEmoji(text: string): boolean {
  if (text.length === 0 || text.length > 64) return false;
  const parts = [...graphemes.segment(text)];
  if (parts.length !== 1) return false;
  return pictographic.test(text) || flag.test(text) || keycap.test(text);
}

const mention = /(^|[^\p{L}\p{N}._@-])@([\p{L}\p{N}._-]+)/gu;

/** Each @name in a body as written, with where its '@' stands and where the name ends. */
export function mentionSpans(body: string): { name: string; start: number; end: number }[] {
  return [...body.matchAll(mention)].flatMap((m) => {
    // A trailing '.' or '-' ends the sentence, not the name ('thanks @ada.').
    const name = (m[2] ?? '').replace(/[.-]+$/, '');
    if (!name) return [];
    const start = (m.index ?? 0) + (m[1] ?? '').length;
    return [{ name, start, end: start + 1 + name.length }];
  });
}

/** The usernames a body mentions with @username, lower-cased, each once. */
export function mentionedUsernames(body: string): string[] {
  return [...new Set(mentionSpans(body).map((m) => m.name.toLowerCase()))];
}
