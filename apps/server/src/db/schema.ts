import type { ColumnType, Generated } from 'kysely';

// Table types. Booleans are stored as 0/1 integers and times as ISO 8601 UTC text so one set of
// queries serves SQLite and PostgreSQL alike; repos convert at their edge.
export interface UsersTable {
  id: Generated<number>;
  username: string;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  displayname: string;
  bio: Generated<string>;
  location: Generated<string>;
  phone: Generated<string>;
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
  is_activated: Generated<number>;
  is_blue_verified: Generated<number>;
  hide_profile: Generated<number>;
  online_status: Generated<number>;
  read_receipt: Generated<number>;
  push_notification: Generated<number>;
  email_notification: Generated<number>;
  last_seen: ColumnType<string | null, string | null | undefined, string | null>;
  date_joined: string;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  remember: number;
  expires_at: string;
  created_at: string;
}

export interface CodesTable {
  id: Generated<number>;
  user_id: number;
  purpose: 'signup' | 'reset' | 'email_change';
  code_hash: string;
  new_email: string | null;
  attempts: number;
  expires_at: string;
  created_at: string;
}

export interface ChatsTable {
  id: Generated<number>;
  chat_id: string;
  is_private: number;
  private_key: string | null;
  name: Generated<string>;
  description: Generated<string>;
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: string;
  last_activity_at: string;
}

export interface ChatMembersTable {
  id: Generated<number>;
  chat_id: number;
  user_id: number | null;
  role: Generated<'admin' | 'member'>;
  joined_at: string;
  last_read_id: Generated<number>;
  last_delivered_id: Generated<number>;
  /** Messages up to this id are hidden for this member ("clear conversation for me"). */
  cleared_before_id: Generated<number>;
}

export interface MessagesTable {
  id: Generated<number>;
  chat_id: number;
  sender_id: number | null;
  kind: Generated<'user' | 'system'>;
  client_id: string | null;
  body: string;
  created_at: string;
}

export interface SocketTicketsTable {
  ticket_hash: string;
  session_id: number;
  user_id: number;
  expires_at: string;
}

export interface FilesTable {
  id: Generated<number>;
  chat_id: number;
  uploader_id: number;
  message_id: number | null;
  type: 'image' | 'video' | 'pdf' | 'text' | 'other';
  mime: string;
  name: string;
  size: number;
  storage_key: string;
  thumb_key: string | null;
  created_at: string;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  codes: CodesTable;
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  messages: MessagesTable;
  socket_tickets: SocketTicketsTable;
  files: FilesTable;
  server_secrets: ServerSecretsTable;
}
