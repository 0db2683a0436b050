import type { Generated } from 'kysely';

// The notifications module's tables (migration 0004-notifications).
export interface PushSubscriptionsTable {
  id: Generated<number>;
  user_id: number;
  session_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  created_at: string;
}

export interface EmailDigestsTable {
  user_id: number;
  /** ISO 8601 UTC; the mail goes out once this has passed. */
  due_at: string;
}

export interface NotificationsTables {
  push_subscriptions: PushSubscriptionsTable;
  email_digests: EmailDigestsTable;
}
