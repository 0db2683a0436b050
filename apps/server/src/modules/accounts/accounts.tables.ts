import type { ColumnType, Generated } from 'kysely';

// The accounts module's tables (migration 0001-accounts). Booleans are stored as 0/1 integers and times as
// ISO 8601 UTC text so one set of queries serves SQLite and PostgreSQL alike; repos convert at their edge.
export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  displayname: string;
  bio: Generated<string>;
  location: Generated<string>;
  phone: Generated<string>;
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
  is_activated: Generated<number>;
  is_blue_verified: Generated<number>;
  hide_profile: Generated<number>;
  online_status: Generated<number>;
  read_receipt: Generated<number>;
  push_notification: Generated<number>;
  email_notification: Generated<number>;
  last_seen: ColumnType<string | null, string | null | undefined, string | null>;
  date_joined: string;
  /** Site admin (migration 0010): the first verified account on a fresh server, or granted by `npm run admin`. */
  is_site_admin: Generated<number>;
  /** Set while an admin has deactivated the account: no login, no sessions. */
  deactivated_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** A bot (migration 0024): no password, no email; the bots module keeps the rest. */
  is_bot: Generated<number>;
  /** The language chosen in Settings, null for the browser's (migration 0027). */
  language: ColumnType<string | null, string | null | undefined, string | null>;
  /** The language of the browser that signed up: mail follows it until a language is chosen. */
  signup_language: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: number;
  expires_at: string;
  created_at: string;
  /** Where the session signed in from (migration 0009): shown in the sessions list. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  ip: ColumnType<string | null, string | null | undefined, string | null>;
  /** Written at most once a minute per session (SessionService.verify). */
  last_active_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'signup' | 'reset' | 'email_change';
  code_hash: string;
  new_email: string | null;
  attempts: number;
  expires_at: string;
  created_at: string;
}

/** A person's two-step sign-in factor (migration 0009): pending until `enabled_at`; the secret is sealed. */
export interface TotpFactorsTable {
  user_id: number;
  secret: string;
  enabled_at: string | null;
  /** The last time step a code was accepted for: no code is accepted twice (RFC 6238 §5.2). */
  last_step: number | null;
  attempts: Generated<number>;
  locked_until: string | null;
  created_at: string;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** Keys of the accounts module, made once (secret-box.ts). */
export interface AccountKeysTable {
  name: string;
  value: string;
}

/** A personal access token (migration 0024): its SHA-256 only; scopes 'read' or 'read,write'. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  token_hash: string;
  scopes: string;
  created_at: string;
  expires_at: string | null;
  /** Written at most once a minute per token. */
  last_used_at: string | null;
}

/** A sign-in sent to the OpenID provider (migration 0025), found by the SHA-256 of its cookie's random id. */
export interface OidcFlowsTable {
  id_hash: string;
  state: string;
  nonce: string;
  code_verifier: string;
  /** The invite link the sign-up page carried, used if the sign-in makes an account. */
  invite: string | null;
  expires_at: string;
}

/** A sign-in the provider confirmed, until the web app trades its one-time code (SHA-256 kept) for a session. */
export interface OidcHandoffsTable {
  code_hash: string;
  user_id: number;
  /** 1 when this sign-in made the account. */
  created: number;
  expires_at: string;
}

export interface AccountsTables {
  oidc_flows: OidcFlowsTable;
  oidc_handoffs: OidcHandoffsTable;
  api_tokens: ApiTokensTable;
  users: UsersTable;
  sessions: SessionsTable;
  codes: CodesTable;
  totp_factors: TotpFactorsTable;
  recovery_codes: RecoveryCodesTable;
  account_keys: AccountKeysTable;
}
