import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Session, SessionService } from '../modules/accounts/session.service';
import { UnauthorizedError } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
}

export const bearerToken = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, value] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' || scheme?.toLowerCase() === 'token' ? (value ?? null) : null;
};

/** A preHandler that requires a live session and puts it on request.session. */
export const requireAuth =
  (sessions: SessionService) => async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError();
    const session = await sessions.verify(token);
    if (!session) throw new UnauthorizedError('Invalid or expired token.');
    request.session = session;
  };

/** For handlers behind requireAuth: the session is there. */
export const sessionOf = (request: FastifyRequest): Session => {
  if (!request.session) throw new UnauthorizedError();
  return request.session;
};
