import type { Generated } from 'kysely';

// The webhooks module's table (migration 0024-integrations): a chat's incoming webhooks. Only the SHA-256 of a
// hook's secret is kept; its chat's deletion deletes it (foreign key, cascade).
export interface WebhooksTable {
  id: Generated<number>;
  chat_id: number;
  /** Who made it; null once their account is gone. */
  creator_id: number | null;
  name: string;
  secret_hash: string;
  created_at: string;
}

export interface WebhooksTables {
  webhooks: WebhooksTable;
}
