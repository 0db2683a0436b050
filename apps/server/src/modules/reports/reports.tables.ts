import type { Generated } from 'kysely';

// The reports module's table (migration 0008-safety): reports of messages and people, and their resolution.
export interface ReportsTable {
  id: Generated<number>;
  reporter_id: number | null;
  target_user_id: number | null;
  message_id: number | null;
  chat_id: string | null;
  message_body: string | null;
  reason: string;
  note: Generated<string>;
  status: Generated<'open' | 'resolved'>;
  created_at: string;
  resolved_at: string | null;
  resolved_by: number | null;
  resolution_action: string | null;
  resolution_note: string | null;
}

export interface ReportsTables {
  reports: ReportsTable;
}
