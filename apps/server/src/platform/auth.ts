import type { FastifyReply, FastifyRequest } from 'fastify';
import { UnauthorizedError } from './errors';

/** Who a request acts for: a live session of a user. Accounts issues and verifies them; here they are carried. */
export interface Session {
  sessionId: number;
  userId: number;
}

/** What the auth hook needs of the session store (accounts' SessionService), so the platform imports no module. */
export interface SessionVerifier {
  verify(token: string | undefined | null): Promise<Session | null>;
}

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
  (sessions: SessionVerifier) => async (request: FastifyRequest, _reply: FastifyReply) => {
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
