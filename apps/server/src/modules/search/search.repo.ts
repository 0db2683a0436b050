import { sql } from 'kysely';
import type { Db, DialectName } from '../../db/database';

// The search index's SQL: messages_fts (SQLite, FTS5) or messages.search (PostgreSQL, tsvector), and users_fts /
// users.search for people. The indexes follow writes by themselves (migration 0006); these statements only read,
// joining messages, chat_members, chats, files and blocks read-only to apply the reader's permissions and filters.

export interface MessageSearch {
  userId: number;
  /** The index query (toFts5 / toTsquery), or null to list by the filters alone. */
  match: string | null;
  chatDbId?: number;
  senderId?: number;
  before?: string;
  after?: string;
  hasFile?: boolean;
  /** Only messages older than this id (the cursor). */
  belowId?: number;
  limit: number;
}

export interface MessageHit {
  id: number;
  chat_db_id: number;
  chat_id: string;
  is_private: number;
}

/**
 * Messages the person may see, newest first: of chats they are a member of now, past what they cleared, not
 * deleted, not system lines, not from someone they blocked.
 */
export async function searchMessages(db: Db, dialect: DialectName, s: MessageSearch): Promise<MessageHit[]> {
  const filters = [
    sql`m.id > cm.cleared_before_id`,
    sql`m.deleted_at IS NULL`,
    sql`m.kind = 'user'`,
    // Nothing from someone the person blocked: their text is nowhere on the blocker's screen.
    sql`NOT EXISTS (SELECT 1 FROM blocks b WHERE b.blocker_id = ${s.userId} AND b.blocked_id = m.sender_id)`,
    ...(s.chatDbId !== undefined ? [sql`m.chat_id = ${s.chatDbId}`] : []),
    ...(s.senderId !== undefined ? [sql`m.sender_id = ${s.senderId}`] : []),
    ...(s.before !== undefined ? [sql`m.created_at < ${s.before}`] : []),
    ...(s.after !== undefined ? [sql`m.created_at >= ${s.after}`] : []),
    ...(s.hasFile ? [sql`EXISTS (SELECT 1 FROM files fl WHERE fl.message_id = m.id)`] : []),
    ...(s.belowId !== undefined ? [sql`m.id < ${s.belowId}`] : []),
  ];
  const member = sql`JOIN chat_members cm ON cm.chat_id = m.chat_id AND cm.user_id = ${s.userId}
    JOIN chats c ON c.id = m.chat_id`;
  const columns = sql`m.id, m.chat_id AS chat_db_id, c.chat_id, c.is_private`;
  let query: ReturnType<typeof sql<MessageHit>>;
  if (s.match === null) {
    query = sql<MessageHit>`SELECT ${columns} FROM messages m ${member}
      WHERE ${sql.join(filters, sql` AND `)} ORDER BY m.id DESC LIMIT ${s.limit}`;
  } else if (dialect === 'sqlite') {
    // The full-text table drives the loop newest first; the membership join drops what the person may not see.
    query = sql<MessageHit>`SELECT ${columns} FROM messages_fts f JOIN messages m ON m.id = f.rowid ${member}
      WHERE messages_fts MATCH ${s.match} AND ${sql.join(filters, sql` AND `)}
      ORDER BY f.rowid DESC LIMIT ${s.limit}`;
  } else {
    query = sql<MessageHit>`SELECT ${columns} FROM messages m ${member}
      WHERE m.search @@ to_tsquery('parley_search', ${s.match}) AND ${sql.join(filters, sql` AND `)}
      ORDER BY m.id DESC LIMIT ${s.limit}`;
  }
  const { rows } = await query.execute(db);
  return rows.map((r) => ({
    ...r,
    id: Number(r.id),
    chat_db_id: Number(r.chat_db_id),
    is_private: Number(r.is_private),
  }));
}

/** Activated, visible people every word of whose query starts one of their names' words; at most `limit`. */
export async function searchUsers(
  db: Db,
  dialect: DialectName,
  match: string,
  limit: number,
): Promise<number[]> {
  const query =
    dialect === 'sqlite'
      ? sql<{ id: number }>`SELECT u.id FROM users_fts f JOIN users u ON u.id = f.rowid
          WHERE users_fts MATCH ${match} AND u.is_activated = 1 AND u.hide_profile = 0
          ORDER BY u.id LIMIT ${limit}`
      : sql<{ id: number }>`SELECT u.id FROM users u
          WHERE u.search @@ to_tsquery('parley_search', ${match}) AND u.is_activated = 1 AND u.hide_profile = 0
          ORDER BY u.id LIMIT ${limit}`;
  const { rows } = await query.execute(db);
  return rows.map((r) => Number(r.id));
}
