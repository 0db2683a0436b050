import type { ColumnType, Generated } from 'kysely';

// The messages module's tables (migrations 0002-chats, 0005-message-essentials and 0016-threads; has_poll 0021-polls).
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
  /** The root of the thread this message replies in. */
  thread_root_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** 0 for a reply sent only to its thread: history pages, unread counts and previews leave it out. */
  in_timeline: Generated<number>;
  /** On a root: its replies so far, and when the last came. */
  thread_reply_count: Generated<number>;
  thread_last_reply_at: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 for a copy forwarded from another message. */
  forwarded: Generated<number>;
  /** The incoming webhook that posted it, by name (migration 0024): its sender is null, its kind 'user'. */
  app_name: ColumnType<string | null, string | null | undefined, string | null>;
  /** The link preview shown under the text, as JSON (a LinkPreview); null while there is none. */
  link_preview: ColumnType<string | null, string | null | undefined, string | null>;
  /** The link_previews row it came from, which keeps its picture stored while named. */
  link_preview_id: ColumnType<number | null, number | null | undefined, number | null>;
  /** 1 once its sender asked for no preview (when sending, or by removing one). */
  no_preview: Generated<number>;
  /** 1 for a poll (the polls module holds it): a page reads polls only for these. */
  has_poll: Generated<number>;
}

/** Who follows a thread, who took part in it (first_reply_id, in order) and how far each has read it. */
export interface ThreadFollowsTable {
  id: Generated<number>;
  root_id: number;
  user_id: number;
  following: Generated<number>;
  first_reply_id: ColumnType<number | null, number | null | undefined, number | null>;
  last_read_id: Generated<number>;
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
  thread_follows: ThreadFollowsTable;
}
