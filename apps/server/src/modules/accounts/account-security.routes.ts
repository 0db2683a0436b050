import {
  sessionListSchema,
  sessionsRevokedSchema,
  totpDisableSchema,
  totpEnabledSchema,
  totpEnableSchema,
  totpSetupSchema,
  totpStatusSchema,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

const ok = (schema: z.ZodType) => ({ schema: { response: { 200: responseSchema(schema) } } });
const sessionIdSchema = z.object({ id: z.coerce.number().int().positive() });

// HTTP shape of a person's own security: their sessions and two-step sign-in.
export async function accountSecurityRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions, { signedIn: true });
  /** Setting up and turning on or off: a handful an hour is plenty for a person. */
  const totpLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `2fa:${req.session?.userId}`, 20, 60 * 60_000);

  app.get('/users/sessions/', { preHandler: auth, ...ok(sessionListSchema) }, async (req) => ({
    results: await ctx.sessions.list(sessionOf(req)),
  }));

  app.post(
    '/users/sessions/revoke-others/',
    { preHandler: auth, ...ok(sessionsRevokedSchema) },
    async (req) => ({ revoked: await ctx.sessions.revokeOthers(sessionOf(req)) }),
  );

  app.delete('/users/sessions/:id/', { preHandler: auth }, async (req, reply) => {
    const parsed = sessionIdSchema.safeParse(req.params);
    if (!parsed.success) throw new NotFoundError();
    await ctx.sessions.revokeOwn(sessionOf(req), parsed.data.id);
    return reply.code(204).send();
  });

  app.get('/users/2fa/', { preHandler: auth, ...ok(totpStatusSchema) }, async (req) =>
    ctx.twoFactor.status(sessionOf(req).userId),
  );

  app.post('/users/2fa/setup/', { preHandler: [auth, totpLimit], ...ok(totpSetupSchema) }, async (req) =>
    ctx.twoFactor.setup(sessionOf(req).userId),
  );

  app.post('/users/2fa/enable/', { preHandler: [auth, totpLimit], ...ok(totpEnabledSchema) }, async (req) =>
    ctx.twoFactor.enable(sessionOf(req).userId, parseBody(totpEnableSchema, req.body).code),
  );

  app.post('/users/2fa/disable/', { preHandler: [auth, totpLimit] }, async (req) => {
    const body = parseBody(totpDisableSchema, req.body);
    await ctx.twoFactor.disable(sessionOf(req).userId, body.password, body.code);
    return { detail: 'Two-step sign-in is off.' };
  });
}
