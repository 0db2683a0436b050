import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { DialectName } from './database';
import { accountsMigration } from './migrations/0001-accounts';
import { chatsMigration } from './migrations/0002-chats';
import { attachmentsMigration } from './migrations/0003-attachments';
import { notificationsMigration } from './migrations/0004-notifications';
import { messageEssentialsMigration } from './migrations/0005-message-essentials';
import { searchMigration } from './migrations/0006-search';

// Migrations are code, listed in order; each receives the dialect so it can pick column types.
const migrations: Record<string, (dialect: DialectName) => Migration> = {
  '0001-accounts': accountsMigration,
  '0002-chats': chatsMigration,
  '0003-attachments': attachmentsMigration,
  '0004-notifications': notificationsMigration,
  '0005-message-essentials': messageEssentialsMigration,
  '0006-search': searchMigration,
};

/** `schema`: the PostgreSQL schema in use (tests); Kysely must keep its bookkeeping tables there too. */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  schema: string | null = null,
): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(dialect)])),
  };
  const { error, results } = await new Migrator({
    db,
    provider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
