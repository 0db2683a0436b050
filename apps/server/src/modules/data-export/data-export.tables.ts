import type { Generated } from 'kysely';

// The data-export module's table (migration 0009): ZIPs of a person's data, prepared on request, kept 24 hours.
export interface DataExportsTable {
  id: Generated<number>;
  /** The id in the download link: random, so one person's links cannot be counted or guessed. */
  public_id: string;
  user_id: number;
  status: 'preparing' | 'ready' | 'failed';
  storage_key: string | null;
  size: number | null;
  created_at: string;
  expires_at: string;
}

export interface DataExportTables {
  data_exports: DataExportsTable;
}
