import type { Generated } from 'kysely';

// The saved module's table (migration 0019-saved-messages): each person's saved messages, once per message.
export interface SavedMessagesTable {
  id: Generated<number>;
  user_id: number;
  message_id: number;
  saved_at: string;
}

export interface SavedTables {
  saved_messages: SavedMessagesTable;
}
