import { CLOSE_AUTH_FAILED, CLOSE_SERVICE_RESTART } from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { TooManyRequestsError } from '../../platform/errors';
import type { Session } from '../accounts/session.service';

// Authentication of the sockets: a signed-in page takes a short-lived ticket over HTTP, and a socket opens with
// it; the socket is refused before anything else when the ticket, or the page's origin, does not hold.

export type SocketAuthDeps = Pick<AppContext, 'config' | 'lifecycle' | 'tickets'>;

/** POST /api/ws/ticket/: a ticket for the signed-in session, rate limited per person. */
export function ticketRoutes(
  app: FastifyInstance,
  deps: Pick<AppContext, 'config' | 'sessions' | 'limiter' | 'tickets'>,
) {
  const { config, sessions, limiter, tickets } = deps;
  app.post('/api/ws/ticket/', { preHandler: requireAuth(sessions) }, async (req) => {
    const session = sessionOf(req);
    const limit = await limiter.hit(`ws-ticket:${session.userId}`, config.socketTicketsPerMinute, 60_000);
    if (!limit.allowed)
      throw new TooManyRequestsError(
        limit.retryAfterSeconds,
        'Too many connections. Please try again later.',
      );
    return { ticket: await tickets.issue(session) };
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
 * Authenticates a socket before anything else: frames that arrive meanwhile wait in order in `queue` (a room's;
 * a notification socket's early frames are dropped). Returns the session, or closes with 4001 and returns null.
 */
export async function authenticate(
  deps: SocketAuthDeps,
  ws: WebSocket,
  req: FastifyRequest,
  queue?: RawData[],
): Promise<Session | null> {
  if (deps.lifecycle.stopping) {
    ws.close(CLOSE_SERVICE_RESTART, 'Service restart');
    return null;
  }
  if (queue) ws.on('message', (data) => queue.push(data));
  const token = (req.query as { token?: string }).token;
  const session = originAllowed(deps.config, req) ? await deps.tickets.redeem(token).catch(() => null) : null;
  if (!session) ws.close(CLOSE_AUTH_FAILED, 'Authentication failed');
  return session;
}
