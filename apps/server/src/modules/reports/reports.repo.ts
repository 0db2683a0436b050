import type { Transaction } from 'kysely';
import type { Db } from '../../db/database';
import type { Database } from '../../db/schema';

// The only place the reports table's SQL lives. Lists join users read-only for the people's names (DESIGN §3).
type Executor = Db | Transaction<Database>;

export interface NewReport {
  reporter_id: number;
  target_user_id: number | null;
  message_id: number | null;
  chat_id: string | null;
  message_body: string | null;
  reason: string;
  note: string;
  created_at: string;
}

export async function insertReport(db: Executor, report: NewReport): Promise<number> {
  const row = await db.insertInto('reports').values(report).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** An open report by this reporter of this message (or, without one, of this person). */
export const openReportBy = (
  db: Executor,
  reporterId: number,
  about: { messageId: number } | { targetUserId: number },
) => {
  let q = db
    .selectFrom('reports')
    .select('id')
    .where('reporter_id', '=', reporterId)
    .where('status', '=', 'open');
  q =
    'messageId' in about
      ? q.where('message_id', '=', about.messageId)
      : q.where('message_id', 'is', null).where('target_user_id', '=', about.targetUserId);
  return q.executeTakeFirst();
};

const withPeople = (db: Executor) =>
  db
    .selectFrom('reports as r')
    .leftJoin('users as rep', 'rep.id', 'r.reporter_id')
    .leftJoin('users as tgt', 'tgt.id', 'r.target_user_id')
    .leftJoin('users as res', 'res.id', 'r.resolved_by')
    .selectAll('r')
    .select([
      'rep.username as reporter_username',
      'rep.first_name as reporter_first_name',
      'rep.last_name as reporter_last_name',
      'tgt.username as target_username',
      'tgt.first_name as target_first_name',
      'tgt.last_name as target_last_name',
      'res.username as resolver_username',
      'res.first_name as resolver_first_name',
      'res.last_name as resolver_last_name',
    ]);

/** Reports newest first, optionally of one status, a page at a time. */
export const listReports = (
  db: Executor,
  filter: { status?: 'open' | 'resolved'; limit: number; offset: number },
) => {
  let q = withPeople(db);
  if (filter.status) q = q.where('r.status', '=', filter.status);
  return q.orderBy('r.id', 'desc').limit(filter.limit).offset(filter.offset).execute();
};
export type ReportRow = Awaited<ReturnType<typeof listReports>>[number];

export async function countReports(db: Executor, status?: 'open' | 'resolved'): Promise<number> {
  let q = db.selectFrom('reports').select((eb) => eb.fn.countAll().as('n'));
  if (status) q = q.where('status', '=', status);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

export const reportById = (db: Executor, id: number) =>
  withPeople(db).where('r.id', '=', id).executeTakeFirst();

/** Marks an open report resolved; false when it was not open (already resolved, or gone). */
export async function resolveReport(
  db: Executor,
  id: number,
  r: { resolved_by: number; resolution_action: string; resolution_note: string; resolved_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('reports')
    .set({ ...r, status: 'resolved' })
    .where('id', '=', id)
    .where('status', '=', 'open')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
