// The realtime module's table (migration 0002-chats): single-use socket tickets.
export interface SocketTicketsTable {
  ticket_hash: string;
  session_id: number;
  user_id: number;
  /** A token's scopes ('read' or 'read,write'); null for a signed-in session (migration 0024). */
  scopes: string | null;
  expires_at: string;
}

export interface RealtimeTables {
  socket_tickets: SocketTicketsTable;
}
