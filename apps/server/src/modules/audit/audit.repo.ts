import type { Insertable } from 'kysely';
import type { Db } from '../../db/database';
import type { AuditEventsTable } from './audit.tables';

// Every statement on audit_events. The log reads names from users (accounts') in the same statement, read-only,
// so a page is one round trip; a person deleted since shows without a name.

export const insertEvent = (db: Db, row: Insertable<AuditEventsTable>) =>
  db.insertInto('audit_events').values(row).execute();

export interface AuditFilter {
  type?: string;
  /** Events this person did or underwent. */
  userId?: number;
  /** Only events older than this id (the next page). */
  before?: number;
  limit: number;
}

export function listEvents(db: Db, f: AuditFilter) {
  let q = db
    .selectFrom('audit_events as e')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .leftJoin('users as t', 't.id', 'e.target_id')
    .select([
      'e.id',
      'e.type',
      'e.actor_id',
      'e.target_id',
      'e.detail',
      'e.created_at',
      'a.username as actor_username',
      't.username as target_username',
    ]);
  if (f.type) q = q.where('e.type', '=', f.type);
  if (f.userId !== undefined) {
    const id = f.userId;
    q = q.where((eb) => eb.or([eb('e.actor_id', '=', id), eb('e.target_id', '=', id)]));
  }
  if (f.before !== undefined) q = q.where('e.id', '<', f.before);
  return q.orderBy('e.id', 'desc').limit(f.limit).execute();
}

export async function distinctTypes(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('audit_events').select('type').distinct().orderBy('type').execute();
  return rows.map((r) => r.type);
}
