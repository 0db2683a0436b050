import type { Generated } from 'kysely';

// The bots module's tables (migration 0024-integrations). A bot is a users row (accounts, is_bot = 1); this is
// what makes it a bot: its owner, where its events go and its signing secret (sealed by accounts' SecretBox).
export interface BotsTable {
  user_id: number;
  owner_id: number;
  description: Generated<string>;
  events_url: string | null;
  signing_secret: string;
  /** 1: anyone may start a private chat with it; 0: only its owner, and people it wrote to first. */
  open_to_all: Generated<number>;
  created_at: string;
}

/** An attempt to deliver an event to a bot; a bot's last 50 are kept. */
export interface BotDeliveriesTable {
  id: Generated<number>;
  bot_id: number;
  message_id: number | null;
  chat_id: string;
  attempt: number;
  status: 'delivered' | 'failed';
  http_status: number | null;
  error: string | null;
  created_at: string;
}

export interface BotsTables {
  bots: BotsTable;
  bot_deliveries: BotDeliveriesTable;
}
