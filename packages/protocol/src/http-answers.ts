import { z } from 'zod';
import type {
  AuthResponse,
  AuthUser,
  CodeResent,
  OwnProfile,
  SettingsResponse,
  VerificationRequired,
} from './auth';
import { languageSettingSchema } from './i18n';
import type { AppStats, ProfileListItem, ProfileUpdateResult, PublicProfile } from './profiles';

// The answers of the accounts' and profiles' routes as zod schemas, for the published API's description: the
// TypeScript interfaces they mirror stay what both sides use, and the checks at the end fail to compile when
// a schema and its interface part.

export const authUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
  is_activated: z.boolean(),
  is_blue_verified: z.boolean(),
  is_site_admin: z.boolean().optional(),
});

/** Signing in (a password, a sign-up's code, single sign-on): the person and their session token. */
export const authResponseSchema = authUserSchema.extend({ token: z.string() });

export const verificationRequiredSchema = z.object({
  requires_verification: z.literal(true),
  email: z.string(),
  message: z.string(),
  mail_sent: z.literal(false).optional(),
});

export const codeResentSchema = z.object({ message: z.string(), mail_sent: z.literal(false).optional() });

export const ownProfileSchema = z.object({
  user: z.number().int(),
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  date_joined: z.string(),
  displayname: z.string(),
  bio: z.string(),
  avatar: z.string().nullable(),
  image: z.string().nullable(),
  location: z.string(),
  hide_profile: z.boolean(),
  is_blue_verified: z.boolean(),
  last_seen: z.string().nullable(),
  is_online: z.boolean(),
  created_at: z.string(),
});

export const settingsResponseSchema = z.object({
  user: z.object({
    first_name: z.string(),
    last_name: z.string(),
    username: z.string(),
    email: z.string(),
    is_activated: z.boolean(),
  }),
  profile: z.object({
    displayname: z.string(),
    phone: z.string(),
    bio: z.string(),
    hide_profile: z.boolean(),
    online_status: z.boolean(),
    read_receipt: z.boolean(),
    push_notification: z.boolean(),
    email_notification: z.boolean(),
    avatar: z.string().nullable(),
  }),
  pending_email: z.string().nullable(),
  language: languageSettingSchema,
});

export const profileListItemSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
  is_online: z.boolean(),
  is_blue_verified: z.boolean(),
  is_bot: z.boolean().optional(),
});

export const appStatsSchema = z.object({ total_users: z.number().int(), total_messages: z.number().int() });

export const publicProfileSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
  bio: z.string(),
  location: z.string(),
  date_joined: z.string(),
  last_seen: z.string().nullable(),
  is_online: z.boolean(),
  is_blue_verified: z.boolean(),
  is_bot: z.boolean().optional(),
});

export const profileUpdateResultSchema = z.object({
  name: z.string(),
  username: z.string(),
  avatar: z.string().nullable(),
});

/** Each schema is its interface, both ways: a field added to one and not the other fails to compile here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Mirrors = [
  Same<z.infer<typeof authUserSchema>, AuthUser>,
  Same<z.infer<typeof authResponseSchema>, AuthResponse>,
  Same<z.infer<typeof verificationRequiredSchema>, VerificationRequired>,
  Same<z.infer<typeof codeResentSchema>, CodeResent>,
  Same<z.infer<typeof ownProfileSchema>, OwnProfile>,
  Same<z.infer<typeof settingsResponseSchema>, SettingsResponse>,
  Same<z.infer<typeof profileListItemSchema>, ProfileListItem>,
  Same<z.infer<typeof appStatsSchema>, AppStats>,
  Same<z.infer<typeof publicProfileSchema>, PublicProfile>,
  Same<z.infer<typeof profileUpdateResultSchema>, ProfileUpdateResult>,
];
const mirrored: Mirrors = [true, true, true, true, true, true, true, true, true, true];
void mirrored;
