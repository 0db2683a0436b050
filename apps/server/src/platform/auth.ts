import { TOKEN_TEXT } from '@parley/protocol';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ForbiddenError, UnauthorizedError } from './errors';

/** Who a request acts for: a live session of a user. Accounts issues and verifies them; here they are carried. */
export interface Session {
  sessionId: number;
  userId: number;
  /** Set for an API token (whose sessionId is its id negated): what it may do. A signed-in session has none. */
  scopes?: readonly ('read' | 'write')[];
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

/** What a route asks of an API token beyond being live. */
export interface AuthOptions {
  /** The account's own management (password, 2FA, sessions, tokens, export, deletion): a person signed in only. */
  signedIn?: boolean;
  /** Reading whatever the method (a socket ticket, to receive frames): a read token will do. */
  reading?: boolean;
}

const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Why a token may not do what is asked, or null when it may. */
export function tokenRefusal(session: Session, method: string, options: AuthOptions = {}): string | null {
  if (!session.scopes) return null;
  if (options.signedIn) return TOKEN_TEXT.signInRequired;
  if (options.reading || READING_METHODS.has(method) || session.scopes.includes('write')) return null;
  return TOKEN_TEXT.readOnly;
}

/**
 * A preHandler that requires a live session and puts it on request.session. An API token is a session with
 * scopes: without 'write' it may only read, and it never reaches a route marked `signedIn` (403 either way).
 */
export const requireAuth =
  (sessions: SessionVerifier, options: AuthOptions = {}) =>
  async (request: FastifyRequest, _reply: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw new UnauthorizedError();
    const session = await sessions.verify(token);
    if (!session) throw new UnauthorizedError('Invalid or expired token.');
    const refusal = tokenRefusal(session, request.method, options);
    if (refusal) throw new ForbiddenError(refusal);
    request.session = session;
  };

/** For handlers behind requireAuth: the session is there. */
export const sessionOf = (request: FastifyRequest): Session => {
  if (!request.session) throw new UnauthorizedError();
  return request.session;
};
