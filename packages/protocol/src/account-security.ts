import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants';
import { MSG } from './messages';

// For people: the sessions list, two-step sign-in (RFC 6238 TOTP) and the export of one's data.

/** One signed-in session as its owner sees it; device and browser come from the User-Agent it signed in with. */
export const sessionInfoSchema = z.object({
  id: z.number().int(),
  /** 'Desktop', 'Mobile', 'Tablet' or 'Unknown device'. */
  device: z.string(),
  /** 'Chrome 120', or 'Unknown browser'. */
  browser: z.string(),
  /** 'Linux', 'iOS 17.2', or 'Unknown system'. */
  os: z.string(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_active: z.string(),
  current: z.boolean(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;
export const sessionListSchema = z.object({ results: z.array(sessionInfoSchema) });
export type SessionList = z.infer<typeof sessionListSchema>;
export const sessionsRevokedSchema = z.object({ revoked: z.number().int() });

/** How often a session's last-active time is written at most. */
export const SESSION_ACTIVITY_INTERVAL_MS = 60_000;

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;
/** Wrong codes in a row before two-step sign-in is locked, and for how long (as the emailed codes: 5 tries). */
export const TOTP_MAX_ATTEMPTS = 5;
export const TOTP_LOCK_MINUTES = 15;

export const TOTP_MSG = {
  codeRequired: 'Enter the code from your authenticator app.',
  invalidCode: 'Invalid two-step sign-in code.',
  locked: `Too many wrong codes. Try again in ${TOTP_LOCK_MINUTES} minutes.`,
  alreadyEnabled: 'Two-step sign-in is already on.',
  notSetUp: 'Set up two-step sign-in first.',
  notEnabled: 'Two-step sign-in is not on.',
  wrongPassword: 'Wrong password.',
} as const;

/** Recovery codes look like `k7qm-2xdp-9fwc`: 12 characters of a 32-letter alphabet (60 bits). */
export const RECOVERY_CODE_PATTERN = /^[a-z2-9]{4}-?[a-z2-9]{4}-?[a-z2-9]{4}$/;

/** A code typed at sign-in or to turn two-step sign-in off: six digits from the app, or a recovery code. */
export const totpCodeSchema = z
  .string()
  .trim()
  .min(1, TOTP_MSG.codeRequired)
  .max(32, TOTP_MSG.invalidCode)
  .transform((v) => v.toLowerCase().replace(/\s+/g, ''))
  .refine((v) => /^\d{6}$/.test(v) || RECOVERY_CODE_PATTERN.test(v), TOTP_MSG.invalidCode);

/** Only the app's six digits (turning two-step sign-in on proves the app has the secret). */
export const totpEnableSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, TOTP_MSG.codeRequired)
    .regex(/^\d{6}$/, MSG.codeSixDigits),
});
/** The account's current password, typed again before a change that weakens or ends the account. */
const currentPasswordSchema = z.string().min(1, MSG.passwordRequired).max(PASSWORD_MAX_LENGTH);

/** Turning two-step sign-in off: the password and a code (or a recovery code) both. */
export const totpDisableSchema = z.object({ password: currentPasswordSchema, code: totpCodeSchema });

/**
 * Deleting one's account proves its owner is at the keyboard as turning two-step sign-in off does: the password,
 * and while two-step sign-in is on a code (or a recovery code) as well. Without them the server answers 400.
 */
export const accountDeleteSchema = z.object({
  password: currentPasswordSchema,
  code: totpCodeSchema.optional(),
});
export type AccountDeletePayload = z.input<typeof accountDeleteSchema>;

export const ACCOUNT_DELETE_MSG = {
  passwordNeeded: 'Enter your password to delete your account.',
} as const;

export const totpStatusSchema = z.object({
  enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
});
export type TotpStatus = z.infer<typeof totpStatusSchema>;
export const totpSetupSchema = z.object({ secret: z.string(), otpauth_url: z.string() });
export type TotpSetup = z.infer<typeof totpSetupSchema>;
export const totpEnabledSchema = z.object({ recovery_codes: z.array(z.string()) });
export type TotpEnabled = z.infer<typeof totpEnabledSchema>;

/** The `detail` of the 401 a login answers when the account needs its second step (no token is given). */
export interface TotpRequiredDetail {
  requires_totp: true;
  message: string;
}

/** A data export: prepared after the request, mailed as a link, downloadable for 24 hours. */
export const EXPORT_TTL_HOURS = 24;
export const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(['preparing', 'ready', 'failed']),
  created_at: z.string(),
  expires_at: z.string(),
  size: z.number().int().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;
export const dataExportListSchema = z.object({ results: z.array(dataExportSchema) });
export type DataExportList = z.infer<typeof dataExportListSchema>;

export const EXPORT_MSG = {
  started: 'Your export is being prepared. We will email you a link when it is ready.',
  notReady: 'This export is not ready yet.',
  failed: 'This export could not be prepared. Please ask for a new one.',
  expired: 'This export has expired. Please ask for a new one.',
} as const;

/** The settings screen's address for an export's download (the mailed link points here). */
export const exportPagePath = (id: string) => `/settings?export=${encodeURIComponent(id)}`;

/** The audit log's types for these security events (beside admin.ts's AUDIT). */
export const SECURITY_AUDIT = {
  sessionRevoked: 'session.revoked',
  totpEnabled: '2fa.enabled',
  totpDisabled: '2fa.disabled',
  totpFailed: 'auth.totp_failed',
  totpLocked: 'auth.totp_locked',
  recoveryCodeUsed: 'auth.recovery_code_used',
  exportCreated: 'export.created',
} as const;
