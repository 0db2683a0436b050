import {
  messageSearchQuerySchema,
  messageSearchResponseSchema,
  userSearchQuerySchema,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of search.
export async function searchRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };

  app.get(
    '/search/messages/',
    { ...auth, schema: { response: { 200: responseSchema(messageSearchResponseSchema) } } },
    async (req) =>
      ctx.search.messagesFor(sessionOf(req).userId, parseBody(messageSearchQuerySchema, req.query)),
  );

  app.get('/users/search/', auth, async (req) =>
    ctx.search.people(parseBody(userSearchQuerySchema, req.query).q),
  );
}
