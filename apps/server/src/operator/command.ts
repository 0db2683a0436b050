import { loadConfig } from '../config';
import { createDb, type Db, type DialectName } from '../db/database';
import { migrateToLatest } from '../db/migrate';

/**
 * One operator command: `npm run admin -- <name> <args…>`. `run` returns the exit code (0 done, 1 refused or
 * failed); it prints its own messages. Throw `UsageError` for wrong arguments: the dispatcher prints the usage.
 */
export interface OperatorCommand {
  name: string;
  /** The arguments as shown in the usage text, e.g. `<username>`. */
  args: string;
  /** One line for the usage text. */
  summary: string;
  run(args: string[]): Promise<number>;
}

/** Wrong or missing arguments: the dispatcher prints the message and the command's usage line, exit 2. */
export class UsageError extends Error {}

/** Opens the configured database (DATA_DIR / DATABASE_URL), migrated to latest, for the length of `work`. */
export async function withDatabase<T>(work: (db: Db, dialect: DialectName) => Promise<T>): Promise<T> {
  const { db, dialect } = createDb(loadConfig());
  try {
    await migrateToLatest(db, dialect);
    return await work(db, dialect);
  } finally {
    await db.destroy();
  }
}
