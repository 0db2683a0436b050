import type { Db } from '../../db/database';

// The socket_tickets table's statements (realtime.tables.ts): single-use tickets, stored by hash.

export async function deleteExpiredTickets(db: Db, now: string): Promise<void> {
  await db.deleteFrom('socket_tickets').where('expires_at', '<', now).execute();
}

export async function insertTicket(
  db: Db,
  t: { ticket_hash: string; session_id: number; user_id: number; scopes: string | null; expires_at: string },
): Promise<void> {
  await db.insertInto('socket_tickets').values(t).execute();
}

/** Deletes a ticket and returns what it held: a ticket is used up by the one request that takes it. */
export const takeTicket = (db: Db, ticketHash: string) =>
  db
    .deleteFrom('socket_tickets')
    .where('ticket_hash', '=', ticketHash)
    .returning(['session_id', 'user_id', 'scopes', 'expires_at'])
    .executeTakeFirst();
