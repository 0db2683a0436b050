import type { Generated } from 'kysely';

// The safety module's table (migration 0008-safety): who blocked whom.
export interface BlocksTable {
  id: Generated<number>;
  blocker_id: number;
  blocked_id: number;
  created_at: string;
}

export interface SafetyTables {
  blocks: BlocksTable;
}
