import type { ColumnType, Generated } from 'kysely';

// The chats module's group invite links (migration 0015-invites).
export interface ChatInvitesTable {
  id: Generated<number>;
  chat_id: number;
  code: string;
  created_by: number | null;
  created_at: string;
  expires_at: string | null;
  max_uses: number | null;
  uses: Generated<number>;
  revoked_at: ColumnType<string | null, string | null | undefined, string | null>;
}
