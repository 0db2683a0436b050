import type { Generated } from 'kysely';

// The messages module's table (migration 0002-chats).
export interface MessagesTable {
  id: Generated<number>;
  chat_id: number;
  sender_id: number | null;
  kind: Generated<'user' | 'system'>;
  client_id: string | null;
  body: string;
  created_at: string;
}

export interface MessagesTables {
  messages: MessagesTable;
}
