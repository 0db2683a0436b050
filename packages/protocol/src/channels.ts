import { z } from 'zod';
import { dbIdSchema } from './chat';
import { foldForSearch } from './search';

// Channels: public groups anyone signed in can find in the directory, preview and join; who may post in a
// group; and the roles of its members (the group's fields themselves are chat.ts's).

export const CHANNEL_TEXT = {
  /** An announcement channel refuses a member's message with this. */
  adminsOnly: 'Only admins can post in this group.',
  /** Someone watching a public group they have not joined. */
  joinToPost: 'Join this channel to post in it.',
  onlyAdmins: 'Only the group admins can do this.',
  onlyOwner: 'Only the group owner can do this.',
  ownerStays: 'The owner cannot be demoted. Transfer the ownership first.',
  notMember: 'That person is not a member of this group.',
  ownerIsYou: 'You already own this group.',
} as const;

/** PATCH /api/chats/{chat_id}/members/{user_id}/: promote to admin or back to member (the owner stays). */
export const memberRoleChangeSchema = z.object({ role: z.enum(['admin', 'member']) });

/** POST /api/chats/{chat_id}/transfer/: the owner hands the group to another member and becomes an admin. */
export const ownershipTransferSchema = z.object({ user_id: dbIdSchema });

/** GET /api/channels/?q=&cursor=: `q` matches the starts of words of the name and description. */
export const channelsQuerySchema = z.object({
  q: z.string().trim().max(100).optional().default(''),
  cursor: z.string().max(64).optional(),
});

export const CHANNELS_PAGE_SIZE = 20;

export const channelEntrySchema = z.object({
  chat_id: z.string(),
  group_name: z.string(),
  description: z.string(),
  avatar: z.string().nullable(),
  member_count: z.number().int(),
  is_member: z.boolean(),
  last_activity_at: z.string(),
});
export type ChannelEntry = z.infer<typeof channelEntrySchema>;

/** The directory: public groups, most members first; `next_cursor` null on the last page. */
export const channelDirectorySchema = z.object({
  results: z.array(channelEntrySchema),
  next_cursor: z.string().nullable(),
});
export type ChannelDirectory = z.infer<typeof channelDirectorySchema>;

/**
 * A group's name and description as the directory matches them: each word folded (case and accents, as search
 * folds them) and after a space, so "starts a word" is one LIKE ' word%' on either database.
 */
export function directoryWords(name: string, description: string): string {
  const words = foldForSearch(`${name} ${description}`).match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0 ? '' : ` ${words.join(' ')}`;
}

/** The words of a directory query, folded as directoryWords folds a group's. */
export const directoryQueryWords = (q: string): string[] => directoryWords(q, '').split(' ').filter(Boolean);
