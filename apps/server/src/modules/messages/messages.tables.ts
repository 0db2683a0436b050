import type { ColumnType, Generated } from 'kysely';

// The messages module's tables (migrations 0002-chats and 0005-message-essentials).
export interface MessagesTable {
  id: Generated<number>;
  chat_id: number;
  sender_id: number | null;
  kind: Generated<'user' | 'system'>;
  client_id: string | null;
  body: string;
  created_at: string;
  edited_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** Set when the message was deleted for everyone: its body is '' and its files, versions and reactions gone. */
  deleted_at: ColumnType<string | null, string | null | undefined, string | null>;
  reply_to_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** The mentioned user ids as a JSON array. */
  mentions: Generated<string>;
  /** Rows of message_reactions for this message (a page reads those only where it is above 0). */
  reaction_count: Generated<number>;
}

export interface MessageEditsTable {
  id: Generated<number>;
  message_id: number;
  body: string;
  /** When this version was replaced. */
  edited_at: string;
}

export interface MessageReactionsTable {
  id: Generated<number>;
  message_id: number;
  user_id: number;
  emoji: string;
  created_at: string;
}

export interface MessagesTables {
  messages: MessagesTable;
  message_edits: MessageEditsTable;
  message_reactions: MessageReactionsTable;
}
