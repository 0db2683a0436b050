import { sql } from 'kysely';
import type { Db } from './database';

/** One round trip to the database (readiness). */
export async function ping(db: Db): Promise<void> {
  await sql`SELECT 1`.execute(db);
}
