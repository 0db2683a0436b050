import type { Generated } from 'kysely';

// The admin module's tables (migration 0010-admin).
export interface SiteSettingsTable {
  /** Always 1: one row. */
  id: number;
  signups: Generated<'open' | 'closed' | 'domains'>;
  /** JSON array of lowercase domains, used when `signups` is 'domains'. */
  domains: Generated<string>;
  /** Who may create bots (migration 0028): 'everyone' verified, or 'admins'. */
  bot_creators: Generated<'everyone' | 'admins'>;
  updated_at: string | null;
}

export interface InviteLinksTable {
  id: Generated<number>;
  token: string;
  created_by: number | null;
  created_at: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: Generated<number>;
  revoked_at: string | null;
}

export interface AdminTables {
  site_settings: SiteSettingsTable;
  invite_links: InviteLinksTable;
}
