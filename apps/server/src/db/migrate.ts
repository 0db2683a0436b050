import SQLite from 'better-sqlite3';
import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import type { DialectName } from './database';
import { accountsMigration } from './migrations/0001-accounts';
import { chatsMigration } from './migrations/0002-chats';
import { attachmentsMigration } from './migrations/0003-attachments';
import { notificationsMigration } from './migrations/0004-notifications';
import { messageEssentialsMigration } from './migrations/0005-message-essentials';
import { searchMigration } from './migrations/0006-search';
import { reactionCountsMigration } from './migrations/0007-reaction-counts';
import { safetyMigration } from './migrations/0008-safety';
import { accountSecurityMigration } from './migrations/0009-account-security';
import { adminMigration } from './migrations/0010-admin';
import { clientKeyFirstMigration } from './migrations/0011-client-key-first';
import { replyIndexMigration } from './migrations/0012-reply-index';
import { verifiedFirstAdminMigration } from './migrations/0013-verified-first-admin';
import { channelsMigration } from './migrations/0014-channels';
import { invitesMigration } from './migrations/0015-invites';
import { threadsMigration } from './migrations/0016-threads';
import { memberCountsMigration } from './migrations/0017-member-counts';
import { pinsMigration } from './migrations/0018-pins';
import { savedMessagesMigration } from './migrations/0019-saved-messages';
import { forwardedMigration } from './migrations/0020-forwarded';
import { pollsMigration } from './migrations/0021-polls';
import { linkPreviewsMigration } from './migrations/0022-link-previews';
import { audioMigration } from './migrations/0023-audio';
import { integrationsMigration } from './migrations/0024-integrations';
import { oidcMigration } from './migrations/0025-oidc';
import { commandsMigration } from './migrations/0026-commands';
import { languagesMigration } from './migrations/0027-languages';
import { botCreatorsMigration } from './migrations/0028-bot-creators';

// Migrations are code, listed in order; each receives the dialect so it can pick column types.
const migrations = {
  '0001-accounts': accountsMigration,
  '0002-chats': chatsMigration,
  '0003-attachments': attachmentsMigration,
  '0004-notifications': notificationsMigration,
  '0005-message-essentials': messageEssentialsMigration,
  '0006-search': searchMigration,
  '0007-reaction-counts': reactionCountsMigration,
  '0008-safety': safetyMigration,
  '0009-account-security': accountSecurityMigration,
  '0010-admin': adminMigration,
  '0011-client-key-first': clientKeyFirstMigration,
  '0012-reply-index': replyIndexMigration,
  '0013-verified-first-admin': verifiedFirstAdminMigration,
  '0014-channels': channelsMigration,
  '0015-invites': invitesMigration,
  '0016-threads': threadsMigration,
  '0017-member-counts': memberCountsMigration,
  '0018-pins': pinsMigration,
  '0019-saved-messages': savedMessagesMigration,
  '0020-forwarded': forwardedMigration,
  '0021-polls': pollsMigration,
  '0022-link-previews': linkPreviewsMigration,
  '0023-audio': audioMigration,
  '0024-integrations': integrationsMigration,
  '0025-oidc': oidcMigration,
  '0026-commands': commandsMigration,
  '0027-languages': languagesMigration,
  '0028-bot-creators': botCreatorsMigration,
} satisfies Record<string, (dialect: DialectName) => Migration>;

/** The database ran a migration this code does not know: a newer Parley migrated it. main.ts says so and exits 1. */
export class NewerDatabaseError extends Error {
  constructor(readonly migration: string) {
    super(
      `This database was migrated by a newer version of Parley (migration ${migration}). Run that version, ` +
        'or restore a backup made before the upgrade.',
    );
    this.name = 'NewerDatabaseError';
  }
}

/**
 * Brings the database up to date at start. Processes starting at once are safe: Kysely's Migrator takes a lock
 * (a lock table, and on PostgreSQL a transaction) so one migrates and the others see it done. `schema`: the
 * PostgreSQL schema in use (tests); Kysely must keep its bookkeeping tables there too.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: DialectName,
  schema: string | null = null,
  /** Stop after this migration (tests of a migration's work on rows written before it). */
  upTo?: keyof typeof migrations,
): Promise<void> {
  if (dialect === 'sqlite') return withSqliteMigrationLock(db, () => migrate(db, dialect, schema, upTo));
  return migrate(db, dialect, schema, upTo);
}

const LOCK_WAIT_MS = 120_000;

/**
 * Kysely takes no lock on SQLite (it assumes one connection), so processes starting at once on one file would
 * both decide to run the same migration. They take turns here through an exclusive lock on a small file beside
 * the database, waited for without blocking the event loop.
 */
async function withSqliteMigrationLock(db: Kysely<any>, run: () => Promise<void>): Promise<void> {
  const { rows } = await sql<{ name: string; file: string }>`PRAGMA database_list`.execute(db);
  const file = rows.find((r) => r.name === 'main')?.file;
  if (!file) return run(); // in memory: nobody else can see it
  const lock = new SQLite(`${file}-migrate.lock`);
  lock.pragma('busy_timeout = 0');
  const deadline = Date.now() + LOCK_WAIT_MS;
  try {
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
    await run();
  } finally {
    if (lock.inTransaction) lock.exec('COMMIT');
    lock.close();
  }
}

async function migrate(
  db: Kysely<any>,
  dialect: DialectName,
  schema: string | null,
  upTo: string | undefined,
): Promise<void> {
  const provider: MigrationProvider = {
    getMigrations: async () =>
      Object.fromEntries(Object.entries(migrations).map(([name, make]) => [name, make(dialect)])),
  };
  // Features land in any order while their numbers were handed out in advance (0022 before 0021): a database
  // that ran a later one still runs an earlier one it lacks, instead of refusing to start.
  const migrator = new Migrator({
    db,
    provider,
    allowUnorderedMigrations: true,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await (upTo ? migrator.migrateTo(upTo) : migrator.migrateToLatest());
  // Kysely refuses a database that ran a migration this code does not know: one made by a newer Parley.
  const unknown = /previously executed migration (\S+) is missing/.exec(String(error));
  if (unknown) throw new NewerDatabaseError(unknown[1] as string);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
