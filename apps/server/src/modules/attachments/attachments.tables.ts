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
}

export interface ServerSecretsTable {
  name: string;
  value: string;
}

export interface AttachmentsTables {
  files: FilesTable;
  server_secrets: ServerSecretsTable;
}
