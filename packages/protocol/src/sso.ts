import { z } from 'zod';
import { totpCodeSchema } from './account-security';

// Single sign-on through an OpenID provider. The browser goes to SSO_START_PATH, the provider, then the server's
// callback, which sends it back to the web app with a one-time code in the address's fragment (never a session
// token): `/login#sso=<code>`, or `/login#sso_error=<kind>` when the sign-in failed. The app trades the code for a
// session with POST SSO_EXCHANGE_PATH, giving the two-step sign-in code too when the account asks for one.

/** Where the sign-in button goes (the API's own address; `?invite=` carries a sign-up page's invite link). */
export const SSO_START_PATH = '/api/auth/oidc/start';
/** The callback to register at the provider, after PUBLIC_URL. */
export const SSO_CALLBACK_PATH = '/api/auth/oidc/callback';
/** POST {code, totp_code?} → AuthResponse (under /api). */
export const SSO_EXCHANGE_PATH = '/auth/oidc/exchange/';
/** The provider's id in the site's sign_in_providers. */
export const SSO_PROVIDER_ID = 'oidc';
/** The fragment keys of the web app's /login address the callback lands on. */
export const SSO_CODE_KEY = 'sso';
export const SSO_ERROR_KEY = 'sso_error';

/** How long the one-time code is good for; longer when a two-step code must still be typed. */
export const SSO_HANDOFF_TTL_MS = 60_000;
export const SSO_HANDOFF_TOTP_TTL_MS = 5 * 60_000;

export const ssoExchangeSchema = z.object({
  code: z.string().trim().min(1).max(128),
  /** The second step of an account with two-step sign-in: the app's code or a recovery code. */
  totp_code: totpCodeSchema.optional(),
});
export type SsoExchangePayload = z.input<typeof ssoExchangeSchema>;

/** Why a single sign-on came back without signing in: the callback's `sso_error`. */
export const ssoErrorKinds = [
  /** No sign-in under way in this browser matches the answer: expired, used, or started elsewhere. */
  'state',
  /** The provider said no (the person cancelled, or it refused this server). */
  'refused',
  /** The provider gave no email address, or one it has not verified. */
  'unverified',
  /** The provider could not be reached, or its answer did not check out. */
  'provider',
  /** The account is deactivated. */
  'deactivated',
  /** No account has this address and sign-ups are closed to it (SIGNUP policy, invite links). */
  'signups_closed',
  /** The invite link the sign-up carried is not valid any more. */
  'invite',
] as const;
export type SsoErrorKind = (typeof ssoErrorKinds)[number];

/** The banner the auth screen shows for each kind; `{name}` is the provider's name. */
export const SSO_ERROR_MESSAGES: Record<SsoErrorKind, string> = {
  state: 'That sign-in did not finish in time or was started in another browser. Please try again.',
  refused: '{name} did not sign you in.',
  unverified: '{name} has no verified email address for you, so Parley cannot tell which account is yours.',
  provider: 'Could not reach {name} to sign you in. Please try again in a moment.',
  deactivated:
    "This account has been deactivated. Contact the server's administrator if you think this is a mistake.",
  signups_closed:
    'There is no Parley account with your email address, and sign-ups are closed to it. Ask the administrator for an invite link.',
  invite: 'This invite link is not valid any more. Ask for a new one.',
};

export const ssoErrorMessage = (kind: string, name: string): string =>
  (SSO_ERROR_MESSAGES[kind as SsoErrorKind] ?? SSO_ERROR_MESSAGES.provider).replaceAll('{name}', name);

export const SSO_MSG = {
  /** A code that was used, expired or never made. */
  expired: 'This sign-in has expired. Please sign in again.',
  /** OIDC_ONLY: password sign-in for someone other than a site admin. */
  passwordsOff: 'Password sign-in is turned off on this server. Sign in with {name}.',
  /** OIDC_ONLY: a password sign-up. */
  signUpOff: 'Accounts on this server are made by signing in with {name}.',
} as const;

export const signInLabel = (name: string): string => `Sign in with ${name}`;
