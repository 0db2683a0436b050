import type { ColumnType, Generated } from 'kysely';
import type { ChatInvitesTable } from './invites.tables';

// The chats module's tables (migration 0002-chats): chats and their members.
export interface ChatsTable {
  id: Generated<number>;
  chat_id: string;
  is_private: number;
  private_key: string | null;
  name: Generated<string>;
  description: Generated<string>;
  avatar: ColumnType<string | null, string | null | undefined, string | null>;
  /** 'public': in the directory, open to join and to preview (migration 0014-channels). */
  visibility: Generated<'private' | 'public'>;
  /** 'admins': an announcement channel. */
  posting: Generated<'everyone' | 'admins'>;
  /** The folded words of name and description, each after a space, for the directory's prefix match. */
  directory_words: Generated<string>;
  /** Its chat_members rows, kept by triggers on chat_members (migration 0017-member-counts): never written here. */
  member_count: Generated<number>;
  created_at: string;
  last_activity_at: string;
}

export interface ChatMembersTable {
  id: Generated<number>;
  chat_id: number;
  user_id: number | null;
  role: Generated<'owner' | 'admin' | 'member'>;
  joined_at: string;
  last_read_id: Generated<number>;
  last_delivered_id: Generated<number>;
  /** Messages up to this id are hidden for this member ("clear conversation for me"). */
  cleared_before_id: Generated<number>;
  /** Muted until then (ISO 8601; MUTED_ALWAYS for always); null when not muted. */
  muted_until: Generated<string | null>;
}

export interface ChatsTables {
  chats: ChatsTable;
  chat_members: ChatMembersTable;
  chat_invites: ChatInvitesTable;
}
