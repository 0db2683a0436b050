import type { FileType } from '@parley/protocol';
import type { Generated } from 'kysely';

// The attachments module's tables (migration 0003-attachments, audio's columns 0023-audio): uploaded files, and
// the server secrets that sign their URLs (the file URL key is the only secret kept there).
export interface FilesTable {
  id: Generated<number>;
  chat_id: number;
  uploader_id: number;
  message_id: number | null;
  type: FileType;
  mime: string;
  name: string;
  size: number;
  storage_key: string;
  thumb_key: string | null;
  created_at: string;
  /** 'voice' for a voice message; null for any other file. */
  kind: 'voice' | null;
  duration_ms: number | null;
  /** A voice message's waveform: a JSON array of 64 integers 0..255. */
  waveform: string | null;
  /** When a private chat's voice message was first played by the person it was sent to. */
  played_at: string | null;
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface AttachmentsTables {
  files: FilesTable;
  server_secrets: ServerSecretsTable;
}
