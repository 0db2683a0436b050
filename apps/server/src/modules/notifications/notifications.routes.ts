import { pushSubscribeSchema, pushUnsubscribeSchema, type VapidPublicKeyResponse } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { parseBody } from '../../platform/validate';

// Web Push subscriptions. The missed-message mail has no routes: the settings switch drives it.
export async function notificationsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions, { signedIn: true });
  const perUser = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `push:subscribe:${req.session?.userId}`, 30, 60 * 60_000);

  app.get(
    '/push/vapid-public-key/',
    async (): Promise<VapidPublicKeyResponse> => ({
      public_key: ctx.push.publicKey,
    }),
  );

  app.post('/push/subscriptions/', { preHandler: [auth, perUser] }, async (req, reply) => {
    await ctx.push.subscribe(sessionOf(req), parseBody(pushSubscribeSchema, req.body));
    return reply.code(201).send({ detail: 'Subscribed.' });
  });

  app.delete('/push/subscriptions/', { preHandler: auth }, async (req, reply) => {
    await ctx.push.unsubscribe(sessionOf(req).userId, parseBody(pushUnsubscribeSchema, req.body).endpoint);
    return reply.code(204).send();
  });
}
