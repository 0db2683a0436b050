import {
  botCreateSchema,
  botCredentialsSchema,
  botDeliveryListSchema,
  botListSchema,
  botSchema,
  botUpdateSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

const botIdSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const ok = (status: number, schema: z.ZodType) => ({
  schema: { response: { [status]: responseSchema(schema) } },
});

/** A bot's id from the path; anything else names no bot. */
const botIdOf = (req: FastifyRequest): number => {
  const parsed = botIdSchema.safeParse(req.params);
  if (!parsed.success) throw new NotFoundError('Bot not found.');
  return parsed.data.id;
};

// A person's bots. Making, changing and deleting them, and minting their credentials, are the owner's when
// signed in (never a token's, which could otherwise mint tokens); the delivery log is readable with a token too.
export async function botsRoutes(app: FastifyInstance, ctx: AppContext) {
  const owner = requireAuth(ctx.sessions, { signedIn: true });
  const reader = requireAuth(ctx.sessions);
  /** Each bot is a new account and each rotation new credentials: a few dozen an hour is plenty. */
  const mintLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `bots:${req.session?.userId}`, 30, 60 * 60_000);

  app.post(
    '/bots/',
    { preHandler: [owner, mintLimit], ...ok(201, botCredentialsSchema) },
    async (req, reply) =>
      reply
        .code(201)
        .send(await ctx.bots.create(sessionOf(req).userId, parseBody(botCreateSchema, req.body))),
  );

  app.get('/bots/', { preHandler: owner, ...ok(200, botListSchema) }, async (req) => ({
    results: await ctx.bots.list(sessionOf(req).userId),
  }));

  app.patch('/bots/:id/', { preHandler: owner, ...ok(200, botSchema) }, async (req) =>
    ctx.bots.update(sessionOf(req).userId, botIdOf(req), parseBody(botUpdateSchema, req.body)),
  );

  app.delete('/bots/:id/', { preHandler: owner }, async (req, reply) => {
    await ctx.bots.remove(sessionOf(req).userId, botIdOf(req));
    return reply.code(204).send();
  });

  app.post(
    '/bots/:id/tokens/',
    { preHandler: [owner, mintLimit], ...ok(200, botCredentialsSchema) },
    async (req) => ctx.bots.rotate(sessionOf(req).userId, botIdOf(req)),
  );

  app.get(
    '/bots/:id/deliveries/',
    { preHandler: reader, ...ok(200, botDeliveryListSchema) },
    async (req) => ({
      results: await ctx.bots.deliveries(sessionOf(req).userId, botIdOf(req)),
    }),
  );
}
