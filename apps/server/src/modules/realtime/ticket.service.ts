import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/database';
import { hashToken, type Session, type SessionService } from '../accounts/session.service';
import * as repo from './tickets.repo';

const TICKET_TTL_MS = 30_000;

interface Deps {
  db: Db;
  sessions: SessionService;
}

/** Short-lived single-use socket tickets (DESIGN §1): a logged socket URL is worthless once used or after 30 s. */
export class TicketService {
  constructor(private readonly deps: Deps) {}

  async issue(session: Session): Promise<string> {
    const ticket = `t_${randomBytes(24).toString('base64url')}`;
    const now = Date.now();
    await repo.deleteExpiredTickets(this.deps.db, new Date(now).toISOString());
    await repo.insertTicket(this.deps.db, {
      ticket_hash: hashToken(ticket),
      session_id: session.sessionId,
      user_id: session.userId,
      scopes: session.scopes ? session.scopes.join(',') : null,
      expires_at: new Date(now + TICKET_TTL_MS).toISOString(),
    });
    return ticket;
  }

  /** A ticket (used up here) or, for other clients, a session token; null when neither is valid. */
  async redeem(token: string | undefined): Promise<Session | null> {
    if (!token) return null;
    if (!token.startsWith('t_')) return this.deps.sessions.verify(token);
    const row = await repo.takeTicket(this.deps.db, hashToken(token));
    // A session token may start with "t_" too (1 in 4,096 do): one that is no ticket is tried as a session.
    if (!row) return this.deps.sessions.verify(token);
    if (row.expires_at <= new Date().toISOString()) return null;
    if (!(await this.deps.sessions.isLive(row.session_id))) return null;
    const session: Session = { sessionId: row.session_id, userId: row.user_id };
    return row.scopes ? { ...session, scopes: row.scopes.split(',') as ('read' | 'write')[] } : session;
  }
}
