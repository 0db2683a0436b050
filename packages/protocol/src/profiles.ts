import { z } from 'zod';
import { usernameSchema } from './auth';
import { BIO_MAX_LENGTH, NAME_MAX_LENGTH } from './constants';
import { MSG } from './messages';

// Profiles: the home list, statistics, public profiles and the profile update (SPEC §3, §5, §7).
const tooLong = (field: string, max: number) => `${field} must be at most ${max} characters.`;

/** The text fields of PUT/POST /api/users/profile/update/ (multipart; the picture travels as the file `image`). */
export const profileUpdateSchema = z.object({
  first_name: z
    .string()
    .trim()
    .min(1, MSG.firstNameRequired)
    .max(NAME_MAX_LENGTH, tooLong('First name', NAME_MAX_LENGTH)),
  last_name: z
    .string()
    .trim()
    .min(1, MSG.lastNameRequired)
    .max(NAME_MAX_LENGTH, tooLong('Last name', NAME_MAX_LENGTH)),
  username: usernameSchema,
  bio: z.string().trim().max(BIO_MAX_LENGTH, tooLong('Bio', BIO_MAX_LENGTH)).optional(),
});
export type ProfileUpdatePayload = z.infer<typeof profileUpdateSchema>;

/** Server refusals of a profile picture; the web's own checks use MSG.imageInvalid and MSG.imageTooLarge. */
export const AVATAR_MSG = {
  tooLarge: MSG.imageTooLarge,
  unsupportedType: 'Please select a valid image file: PNG, JPEG, GIF or WebP.',
  unreadable: 'The image could not be read. Please select a valid image file.',
  tooManyFiles: 'Send one profile picture at most, in the field image.',
} as const;
export const AVATAR_ACCEPTED_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** GET /api/profiles: one card of the home grid. */
export interface ProfileListItem {
  id: number;
  username: string;
  displayname: string;
  avatar: string | null;
  is_online: boolean;
  is_blue_verified: boolean;
  /** A bot (a 'Bot' badge beside the name); absent for people. */
  is_bot?: boolean;
}

/** GET /api/stats */
export interface AppStats {
  total_users: number;
  total_messages: number;
}

/** GET /api/users/@{username}/: what anyone may see of a user; never the email. */
export interface PublicProfile {
  /** The user's id, which `presence` frames name: the page follows them live. */
  id: number;
  username: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
  bio: string;
  location: string;
  date_joined: string;
  last_seen: string | null;
  is_online: boolean;
  is_blue_verified: boolean;
  /** A bot (a 'Bot' badge beside the name); absent for people. */
  is_bot?: boolean;
}

/** The answer of a profile update. */
export interface ProfileUpdateResult {
  name: string;
  username: string;
  avatar: string | null;
}
