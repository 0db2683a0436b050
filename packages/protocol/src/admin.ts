import { z } from 'zod';

// The operator's side: the audit log, the admin API under /api/admin/ and server settings.

/** Audit event types recorded by the admin module and the accounts module; other modules add their own. */
export const AUDIT = {
  loginFailed: 'auth.login_failed',
  loginLocked: 'auth.login_locked',
  codeFailed: 'auth.code_failed',
  codeLocked: 'auth.code_locked',
  deactivatedLogin: 'auth.deactivated_login',
  /** Signed in through the OpenID provider (detail: created, when the sign-in made the account). */
  ssoSignIn: 'auth.sso_sign_in',
  /** A single sign-on that came back without signing in (detail: reason, one of ssoErrorKinds). */
  ssoFailed: 'auth.sso_failed',
  adminGranted: 'admin.granted',
  adminRevoked: 'admin.revoked',
  userDeactivated: 'admin.user.deactivated',
  userReactivated: 'admin.user.reactivated',
  userVerified: 'admin.user.verified',
  userUnverified: 'admin.user.unverified',
  userDeleted: 'admin.user.deleted',
  userSignedOut: 'admin.user.signed_out',
  reportResolved: 'admin.report.resolved',
  settingsChanged: 'admin.settings.changed',
  inviteCreated: 'admin.invite.created',
  inviteRevoked: 'admin.invite.revoked',
} as const;

export const DEACTIVATED_LOGIN_MESSAGE =
  "This account has been deactivated. Contact the server's administrator if you think this is a mistake.";
export const SIGNUPS_CLOSED_MESSAGE =
  'Sign-ups are closed on this server. Ask its administrator for an invite link.';
export const SIGNUP_DOMAIN_MESSAGE = 'Sign-ups on this server are limited to addresses at: ';
export const INVITE_INVALID_MESSAGE = 'This invite link is not valid any more. Ask for a new one.';

const personRef = z.object({ id: z.number().int(), username: z.string().nullable() });
export type PersonRef = z.infer<typeof personRef>;

export const auditEventSchema = z.object({
  id: z.number().int(),
  type: z.string(),
  actor: personRef.nullable(),
  target: personRef.nullable(),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

export const auditPageSchema = z.object({
  results: z.array(auditEventSchema),
  next: z.number().int().nullable(),
});
export type AuditPage = z.infer<typeof auditPageSchema>;

export const auditTypesSchema = z.object({ types: z.array(z.string()) });

export const auditQuerySchema = z.object({
  type: z
    .string()
    .trim()
    .max(64)
    .regex(/^[a-z0-9_.]*$/, 'An event type is lowercase letters, digits, dots and underscores.')
    .optional(),
  /** A username or an id: events this person did or underwent. */
  user: z.string().trim().max(150).optional(),
  before: z.coerce.number().int().positive().optional(),
});

/** Every admin action carries an optional note, kept in the audit log. */
export const adminNoteSchema = z.object({ note: z.string().trim().max(500).optional().default('') });
export type AdminNote = z.input<typeof adminNoteSchema>;

export const ADMIN_USERS_PAGE_SIZE = 25;
export const adminUserSorts = ['date_joined', 'username', 'email', 'displayname', 'last_seen'] as const;
export type AdminUserSort = (typeof adminUserSorts)[number];

export const adminUsersQuerySchema = z.object({
  q: z.string().trim().max(254).optional().default(''),
  page: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  sort: z.enum(adminUserSorts).optional().default('date_joined'),
  order: z.enum(['asc', 'desc']).optional().default('desc'),
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;
export type AdminUsersFilter = z.output<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.number().int(),
  username: z.string(),
  email: z.string(),
  displayname: z.string(),
  avatar: z.string().nullable(),
  date_joined: z.string(),
  last_seen: z.string().nullable(),
  /** The address was verified (sign-up finished). */
  is_activated: z.boolean(),
  /** Not deactivated by an admin. */
  is_active: z.boolean(),
  deactivated_at: z.string().nullable(),
  is_blue_verified: z.boolean(),
  is_site_admin: z.boolean(),
  is_online: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersPageSchema = z.object({
  results: z.array(adminUserSchema),
  count: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>;

export const adminStatsSchema = z.object({
  people: z.object({
    total: z.number().int(),
    activated: z.number().int(),
    deactivated: z.number().int(),
    admins: z.number().int(),
  }),
  /** The last 30 days, oldest first, every day present (0 when quiet); `day` is YYYY-MM-DD (UTC). */
  messages_per_day: z.array(z.object({ day: z.string(), count: z.number().int() })),
  online_now: z.number().int(),
  /** Bytes of uploaded files and profile pictures. */
  storage_bytes: z.number(),
});
export type AdminStats = z.infer<typeof adminStatsSchema>;

export const signupModes = ['open', 'closed', 'domains'] as const;
export type SignupMode = (typeof signupModes)[number];

const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .transform((d) => d.replace(/^@/, ''))
  .pipe(
    z
      .string()
      .max(253)
      .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/, 'Not a domain name.'),
  );

/** Who may create bots: any verified person, or site admins only. */
export const BOT_CREATORS = ['everyone', 'admins'] as const;
export type BotCreators = (typeof BOT_CREATORS)[number];

export const siteSettingsUpdateSchema = z
  .object({
    signups: z.enum(signupModes),
    domains: z.array(domainSchema).max(100).optional().default([]),
    /** Who may create bots; unchanged when left out. */
    bot_creators: z.enum(BOT_CREATORS).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.signups === 'domains' && v.domains.length === 0)
      ctx.addIssue({ code: 'custom', path: ['domains'], message: 'Name at least one email domain.' });
  });
export type SiteSettingsUpdate = z.input<typeof siteSettingsUpdateSchema>;

export const inviteLinkSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  /** The sign-up page with the token: what the operator hands out. */
  url: z.string(),
  created_at: z.string(),
  created_by: personRef.nullable(),
  expires_at: z.string().nullable(),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  /** Revoked, expired or used up. */
  usable: z.boolean(),
  revoked_at: z.string().nullable(),
});
export type InviteLink = z.infer<typeof inviteLinkSchema>;

export const inviteCreateSchema = z.object({
  expires_in_days: z.number().int().min(1).max(365).nullable().optional().default(7),
  max_uses: z.number().int().min(1).max(10_000).nullable().optional().default(null),
});
export type InviteCreate = z.input<typeof inviteCreateSchema>;

export const siteSettingsSchema = z.object({
  signups: z.enum(signupModes),
  domains: z.array(z.string()),
  bot_creators: z.enum(BOT_CREATORS),
  invites: z.array(inviteLinkSchema),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/**
 * A way to sign in with an account elsewhere (OpenID Connect). The server lists the provider it is configured
 * for (OIDC_ISSUER), or none; the auth screen shows a 'Sign in with {name}' button for each.
 */
export const signInProviderSchema = z.object({
  /** A short name: 'google', 'facebook', … (the button draws a known one's mark). */
  id: z.string(),
  /** The provider's name for the button's 'Sign in with {name}', such as 'Google'. */
  name: z.string(),
  /** Where the button goes to start signing in. */
  start_url: z.string(),
});
export type SignInProvider = z.infer<typeof signInProviderSchema>;

/**
 * GET /api/site/: what anyone may know of this server before signing in, so the auth screen says what it offers up
 * front: who may sign up (with `domains` when limited to addresses there), whether an invite link can still be
 * used (then a closed server's sign-up form asks for one), the other ways to sign in, and whether passwords do.
 */
export const publicSiteSchema = z.object({
  signups: z.enum(signupModes),
  domains: z.array(z.string()),
  invites: z.boolean(),
  sign_in_providers: z.array(signInProviderSchema),
  /**
   * Whether passwords sign people in and up. False under OIDC_ONLY: only site admins still sign in with one (the
   * server decides), so the screen offers the provider and keeps the password form behind a small link.
   */
  password_sign_in: z.boolean(),
});
export type PublicSite = z.infer<typeof publicSiteSchema>;

export const INVITE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
