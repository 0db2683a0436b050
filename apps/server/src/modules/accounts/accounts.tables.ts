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
  /** Site admin (migration 0010): the first account on a fresh server, or granted by `npm run admin`. */
  is_site_admin: Generated<number>;
  /** Set while an admin has deactivated the account: no login, no sessions. */
  deactivated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: number;
  expires_at: string;
  created_at: string;
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

export interface AccountsTables {
  users: UsersTable;
  sessions: SessionsTable;
  codes: CodesTable;
}
