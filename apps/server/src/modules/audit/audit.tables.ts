import type { Generated } from 'kysely';

// The audit module's table (migration 0010-admin).
export interface AuditEventsTable {
  id: Generated<number>;
  /** What happened, dotted: `admin.user.deactivated`, `auth.login_failed`, … */
  type: string;
  /** Who did it (null: nobody signed in, or the server itself). */
  actor_id: number | null;
  /** Whom it was done to. */
  target_id: number | null;
  /** JSON object: what else matters (a note, an IP, a username at the time). Never secrets or message bodies. */
  detail: Generated<string>;
  created_at: string;
}

export interface AuditTables {
  audit_events: AuditEventsTable;
}
