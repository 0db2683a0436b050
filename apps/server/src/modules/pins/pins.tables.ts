import type { Generated } from 'kysely';

// The pins module's table (migration 0018-pins): a chat's pinned messages, one row per pinned message.
export interface PinsTable {
  id: Generated<number>;
  chat_id: number;
  message_id: number;
  pinned_by: number;
  pinned_at: string;
}

export interface PinsTables {
  pins: PinsTable;
}
