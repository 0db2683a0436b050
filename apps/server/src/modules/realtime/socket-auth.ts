import { CLOSE_AUTH_FAILED, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { TooManyRequestsError } from '../../platform/errors';
import type { Session } from '../accounts/session.service';
import { closeWhileUnreachable, noteGate, OpeningGate, OpeningsBusyError } from './socket-connection';

// Authentication of the sockets: a signed-in page takes a short-lived ticket over HTTP, and a socket opens with
// it; the socket is refused before anything else when the ticket, or the page's origin, does not hold.

export type SocketAuthDeps = Pick<AppContext, 'config' | 'lifecycle' | 'tickets'>;

/**
 * POST /api/ws/ticket/: a ticket for the signed-in session, rate limited per person. Every reconnecting socket
 * asks for one first, so tickets pass a gate of their own like the openings (socket-connection.ts): a crowd's
 * session look-ups and ticket writes run a few at a time, and past the queue's bound a request is refused with 503.
 */
export function ticketRoutes(
  app: FastifyInstance,
  deps: Pick<AppContext, 'config' | 'lifecycle' | 'sessions' | 'limiter' | 'tickets'>,
): void {
  const { config, lifecycle, sessions, limiter, tickets } = deps;
  const gate = new OpeningGate(config.socketOpeningsInFlight, config.socketOpeningsQueued);
  noteGate(lifecycle, 'tickets', gate);
  // A read token takes tickets too: its socket receives frames and sends none that change anything.
  const auth = requireAuth(sessions, { reading: true });
  app.post('/api/ws/ticket/', async (req, reply) => {
    if (gate.refuse()) throw new OpeningsBusyError();
    return gate.run(async () => {
      await auth(req, reply);
      const session = sessionOf(req);
      const limit = await limiter.hit(`ws-ticket:${session.userId}`, config.socketTicketsPerMinute, 60_000);
      if (!limit.allowed)
        throw new TooManyRequestsError(
          limit.retryAfterSeconds,
          'Too many connections. Please try again later.',
        );
      return { ticket: await tickets.issue(session) };
    });
  });
}

/** Browsers must come from PUBLIC_URL or the page's own origin; clients without an Origin header are not browsers. */
function originAllowed(config: Config, req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (!origin) return true;
  if (config.publicUrl && origin === config.publicUrl) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * Authenticates a socket before anything else (a room socket's frames wait meanwhile in its own queue; a
 * notification socket's early frames are dropped). Returns the session, or closes with 4001 and returns null.
 */
function refuse(ws: WebSocket): null {
  ws.close(CLOSE_AUTH_FAILED, 'Authentication failed');
  return null;
}

export async function authenticate(
  deps: SocketAuthDeps,
  ws: WebSocket,
  req: FastifyRequest,
): Promise<Session | null> {
  if (deps.lifecycle.stopping) {
    ws.close(CLOSE_SERVICE_RESTART, 'Service restart');
    return null;
  }
  const token = (req.query as { token?: string }).token;
  if (!originAllowed(deps.config, req)) return refuse(ws);
  try {
    return (await deps.tickets.redeem(token)) ?? refuse(ws);
  } catch (err) {
    closeWhileUnreachable(ws, err);
    return null;
  }
}
