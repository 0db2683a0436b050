import { z } from 'zod';
import { totpCodeSchema } from './account-security';
import {
  CODE_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
} from './constants';
import { type Locale, languageSettingSchema } from './i18n';
import { MSG } from './messages';

// Server-side payload schemas. The web forms run the field rules in validation.ts for SPEC's per-field texts.
const email = z
  .string()
  .trim()
  .min(1, MSG.emailRequired)
  .max(EMAIL_MAX_LENGTH, MSG.emailTooLong)
  .pipe(z.email(MSG.emailInvalid));
const password = z
  .string()
  .min(1, MSG.passwordRequired)
  .min(PASSWORD_MIN_LENGTH, MSG.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, MSG.passwordTooLong);
export const codeSchema = z
  .string()
  .trim()
  .min(1, MSG.codeRequired)
  .regex(new RegExp(`^\\d{${CODE_LENGTH}}$`), MSG.codeSixDigits);
export const usernameSchema = z
  .string()
  .trim()
  .min(1, MSG.usernameRequired)
  .min(USERNAME_MIN_LENGTH, MSG.usernameTooShort)
  .max(USERNAME_MAX_LENGTH, MSG.usernameTooLong)
  .regex(/^[\p{L}\p{N}._-]+$/u, MSG.usernameInvalid);

export const registerSchema = z
  .object({
    first_name: z.string().trim().min(1, MSG.firstNameRequired).max(NAME_MAX_LENGTH, MSG.firstNameTooLong),
    last_name: z.string().trim().min(1, MSG.lastNameRequired).max(NAME_MAX_LENGTH, MSG.lastNameTooLong),
    // Checked below with the email, so SPEC's own message comes before the character rule.
    username: z.string().trim(),
    email,
    password,
    /** An invite link's token: lets a person sign up while sign-ups are closed or restricted. */
    invite: z.string().trim().max(100).optional(),
  })
  .superRefine((v, ctx) => {
    const name = v.username;
    const message =
      !name || name.length < USERNAME_MIN_LENGTH || name.toLowerCase() !== v.email.toLowerCase()
        ? usernameSchema.safeParse(name).error?.issues[0]?.message
        : MSG.usernameEqualsEmail;
    if (message) ctx.addIssue({ code: 'custom', path: ['username'], message });
  });
export type RegisterPayload = z.infer<typeof registerSchema>;

export const loginSchema = z.object({
  email: z.string().trim().min(1, MSG.emailRequired).max(254),
  password: z.string().min(1, MSG.passwordRequired).max(1024),
  remember_me: z.boolean().optional().default(true),
  /** The second step of an account with two-step sign-in: the app's code or a recovery code. */
  totp_code: totpCodeSchema.optional(),
});
export type LoginPayload = z.input<typeof loginSchema>;

export const emailOnlySchema = z.object({ email });
export const emailCodeSchema = z.object({ email, verification_code: codeSchema });
export const resetConfirmSchema = z.object({ email, verification_code: codeSchema, new_password: password });
export const emailUpdateSchema = z.object({ email });
export const codeOnlySchema = z.object({ verification_code: codeSchema });

export const settingsFields = [
  'online_status',
  'read_receipt',
  'hide_profile',
  'push_notification',
  'email_notification',
] as const;
export type SettingsField = (typeof settingsFields)[number];
export const settingsUpdateSchema = z
  .object({
    online_status: z.boolean(),
    read_receipt: z.boolean(),
    hide_profile: z.boolean(),
    push_notification: z.boolean(),
    email_notification: z.boolean(),
    /** The language Parley is shown (and mails) in; null follows the browser's. */
    language: languageSettingSchema,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Send one setting to change.' });
export type SettingsUpdate = z.output<typeof settingsUpdateSchema>;

/** Flat user fields returned with a token by login and sign-up verification; the web stores them as the signed-in user. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  displayname: string;
  avatar: string | null;
  is_activated: boolean;
  is_blue_verified: boolean;
  /** A site admin: the web shows the Admin link. Absent in sessions stored before it existed. */
  is_site_admin?: boolean;
}
export interface AuthResponse extends AuthUser {
  token: string;
}
export interface VerificationRequired {
  requires_verification: true;
  email: string;
  message: string;
  /**
   * False when the account was created but its verification mail could not be sent (the mail server was
   * away): `message` then says so and the person asks for the code again. Absent when the mail was sent.
   */
  mail_sent?: false;
}

/** POST /api/users/email/resend/signup/: `mail_sent: false` (and `message` saying so) when the mail server is away. */
export interface CodeResent {
  message: string;
  mail_sent?: false;
}

export interface OwnProfile {
  user: number;
  id: number;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  date_joined: string;
  displayname: string;
  bio: string;
  avatar: string | null;
  image: string | null;
  location: string;
  hide_profile: boolean;
  is_blue_verified: boolean;
  last_seen: string | null;
  is_online: boolean;
  created_at: string;
}

export interface SettingsResponse {
  user: { first_name: string; last_name: string; username: string; email: string; is_activated: boolean };
  profile: {
    displayname: string;
    phone: string;
    bio: string;
    hide_profile: boolean;
    online_status: boolean;
    read_receipt: boolean;
    push_notification: boolean;
    email_notification: boolean;
    avatar: string | null;
  };
  pending_email: string | null;
  /** The language chosen in Settings; null: the browser's. */
  language: Locale | null;
}
