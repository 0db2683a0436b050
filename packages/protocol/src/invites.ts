import { z } from 'zod';

// Group invite links: a code anyone signed in may open to see the group and join it, made by its admins
// (and, in a public group, by any member). Not the site's sign-up invites (admin.ts).

/** The longest an invite link may last (30 days), and the most people one may bring in. */
export const GROUP_INVITE_MAX_HOURS = 720;
export const GROUP_INVITE_MAX_USES = 1000;

/** What the join page says, and the server's 404, for a link revoked, expired, used up or never made. */
export const GROUP_INVITE_INVALID = 'This invite link is invalid or has expired.';

/** Audit event types of group invite links. */
export const GROUP_INVITE_AUDIT = {
  created: 'group.invite.created',
  revoked: 'group.invite.revoked',
} as const;

/** POST /api/chats/{chat_id}/invites/: neither given → a link that lasts and serves until revoked. */
export const groupInviteCreateSchema = z.object({
  expires_in_hours: z.number().int().min(1).max(GROUP_INVITE_MAX_HOURS).nullable().optional(),
  max_uses: z.number().int().min(1).max(GROUP_INVITE_MAX_USES).nullable().optional(),
});
export type GroupInviteCreate = z.input<typeof groupInviteCreateSchema>;

export const groupInviteSchema = z.object({
  code: z.string(),
  /** `{PUBLIC_URL}/join/{code}`: what is handed out. */
  url: z.string(),
  expires_at: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
});
export type GroupInvite = z.infer<typeof groupInviteSchema>;

/** GET /api/chats/{chat_id}/invites/: the links still usable, newest first. */
export const groupInviteListSchema = z.object({ results: z.array(groupInviteSchema) });
export type GroupInviteList = z.infer<typeof groupInviteListSchema>;

/** GET /api/invites/{code}/: what the join page shows before one joins. */
export const groupInvitePreviewSchema = z.object({
  chat_id: z.string(),
  group_name: z.string(),
  avatar: z.string().nullable(),
  member_count: z.number().int(),
  visibility: z.enum(['private', 'public']),
});
export type GroupInvitePreview = z.infer<typeof groupInvitePreviewSchema>;
