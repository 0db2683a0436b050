import { apiTokenCreatedSchema, apiTokenCreateSchema, apiTokenListSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

const tokenIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// A person's API tokens: made, listed and revoked by the person signed in, never by a token.
export async function apiTokensRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions, { signedIn: true });
  /** Making tokens: a few dozen an hour is plenty for a person, and bounds what a stolen session mints. */
  const mintLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `tokens:${req.session?.userId}`, 30, 60 * 60_000);

  app.post(
    '/users/tokens/',
    { preHandler: [auth, mintLimit], schema: { response: { 201: responseSchema(apiTokenCreatedSchema) } } },
    async (req, reply) => {
      const body = parseBody(apiTokenCreateSchema, req.body);
      return reply.code(201).send(await ctx.apiTokens.create(sessionOf(req).userId, body));
    },
  );

  app.get(
    '/users/tokens/',
    { preHandler: auth, schema: { response: { 200: responseSchema(apiTokenListSchema) } } },
    async (req) => ({ results: await ctx.apiTokens.list(sessionOf(req).userId) }),
  );

  app.delete('/users/tokens/:id/', { preHandler: auth }, async (req, reply) => {
    const parsed = tokenIdSchema.safeParse(req.params);
    if (!parsed.success) throw new NotFoundError();
    await ctx.apiTokens.revoke(sessionOf(req).userId, parsed.data.id);
    return reply.code(204).send();
  });
}
