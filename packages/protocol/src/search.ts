import { z } from 'zod';
import { messageSchema } from './chat';

// Search: messages, people and chats.

export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_TEXT = {
  blank: 'Enter something to search for.',
  tooLong: `Search at most ${SEARCH_QUERY_MAX_LENGTH} characters.`,
  badDate: 'Use a date such as 2026-11-25 or 2026-11-25T10:00:00Z.',
  badCursor: 'This page of results is no longer valid.',
} as const;

const isoDate = z
  .string()
  .trim()
  .refine((v) => /^\d{4}-\d{2}-\d{2}/.test(v) && !Number.isNaN(Date.parse(v)), SEARCH_TEXT.badDate)
  .transform((v) => new Date(v).toISOString());

/** GET /api/search/messages/ */
export const messageSearchQuerySchema = z
  .object({
    q: z.string().trim().max(SEARCH_QUERY_MAX_LENGTH, SEARCH_TEXT.tooLong).optional().default(''),
    chat_id: z.string().trim().min(1).max(64).optional(),
    /** A username. */
    from: z.string().trim().min(1).max(150).optional(),
    before: isoDate.optional(),
    after: isoDate.optional(),
    has: z.literal('file').optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
    cursor: z
      .string()
      .regex(/^\d{1,10}$/, SEARCH_TEXT.badCursor)
      .optional(),
  })
  .refine((v) => v.q !== '' || v.chat_id || v.from || v.before || v.after || v.has, {
    path: ['q'],
    message: SEARCH_TEXT.blank,
  });
export type MessageSearchQuery = z.infer<typeof messageSearchQuerySchema>;

export const searchChatSchema = z.object({
  chat_id: z.string(),
  is_private: z.boolean(),
  display_name: z.string(),
  avatar: z.string().nullable(),
});

export const messageSearchResultSchema = z.object({
  message: messageSchema,
  chat: searchChatSchema,
  /** [start, end) character ranges of the matched words in `message.body`. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type MessageSearchResult = z.infer<typeof messageSearchResultSchema>;

export const messageSearchResponseSchema = z.object({
  results: z.array(messageSearchResultSchema),
  /** Pass as `cursor` for the next (older) page; null on the last one. */
  next_cursor: z.string().nullable(),
});
export type MessageSearchResponse = z.infer<typeof messageSearchResponseSchema>;

/** GET /api/users/search/?q= */
export const userSearchQuerySchema = z.object({
  q: z.string().trim().min(1, SEARCH_TEXT.blank).max(SEARCH_QUERY_MAX_LENGTH, SEARCH_TEXT.tooLong),
});

/** Lower case without accents: how search compares words on both sides. */
export const foldForSearch = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/** The words of a text as search sees them: runs of letters and digits, with where each starts and ends. */
export function searchWords(text: string): { word: string; start: number; end: number }[] {
  return [...text.matchAll(/[\p{L}\p{N}]+/gu)].map((m) => ({
    word: m[0],
    start: m.index ?? 0,
    end: (m.index ?? 0) + m[0].length,
  }));
}
