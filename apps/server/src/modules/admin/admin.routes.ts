import {
  adminNoteSchema,
  adminStatsSchema,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuerySchema,
  auditQuerySchema,
  inviteCreateSchema,
  publicSiteSchema,
  reportResolveSchema,
  reportsQuerySchema,
  siteSettingsUpdateSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { bearerToken, sessionOf, tokenRefusal } from '../../platform/auth';
import { ForbiddenError, NotFoundError } from '../../platform/errors';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

const idParams = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });

// The admin API under /api/admin/: it answers 404 to everyone but a site admin, signed out included,
// so its existence is not told to anyone else. Each action takes an optional note kept in the audit log.
// Beside it, the public GET /api/site/: what the server settings let anyone know.
export async function adminRoutes(api: FastifyInstance, ctx: AppContext) {
  // Public: who may sign up and how one may sign in, for the auth screen to say before anyone fills a form.
  api.get('/site/', { schema: { response: { 200: responseSchema(publicSiteSchema) } } }, async () =>
    ctx.siteSettings.publicView(),
  );

  await api.register(
    async (app) => {
      // onRequest: before the body is read, so nobody else learns anything from how a body is refused.
      app.addHook('onRequest', async (req: FastifyRequest) => {
        const session = await ctx.sessions.verify(bearerToken(req));
        if (!session || !(await ctx.users.isSiteAdmin(session.userId))) throw new NotFoundError();
        // A site admin's token reaches here, and is refused: the console is for the person signed in.
        const refusal = tokenRefusal(session, req.method, { signedIn: true });
        if (refusal) throw new ForbiddenError(refusal);
        req.session = session;
      });
      const idOf = (req: FastifyRequest) => parseBody(idParams, req.params).id;
      const action = (req: FastifyRequest) => ({
        actorId: sessionOf(req).userId,
        userId: idOf(req),
        note: parseBody(adminNoteSchema, req.body ?? {}).note,
      });

      app.get('/stats/', { schema: { response: { 200: responseSchema(adminStatsSchema) } } }, async () =>
        ctx.admin.stats(),
      );

      app.get(
        '/users/',
        { schema: { response: { 200: responseSchema(adminUsersPageSchema) } } },
        async (req) => ctx.admin.listUsers(parseBody(adminUsersQuerySchema, req.query)),
      );
      const userAnswer = { schema: { response: { 200: responseSchema(adminUserSchema) } } };
      app.get('/users/:id/', userAnswer, async (req) => ctx.admin.user(idOf(req)));
      app.post('/users/:id/deactivate/', userAnswer, async (req) => ctx.admin.deactivate(action(req)));
      app.post('/users/:id/reactivate/', userAnswer, async (req) => ctx.admin.reactivate(action(req)));
      app.post('/users/:id/verify/', userAnswer, async (req) => ctx.admin.setVerified(action(req), true));
      app.delete('/users/:id/verify/', userAnswer, async (req) => ctx.admin.setVerified(action(req), false));
      app.post('/users/:id/sign-out/', async (req, reply) => {
        await ctx.admin.signOutEverywhere(action(req));
        return reply.code(204).send();
      });
      app.post('/users/:id/delete/', async (req, reply) => {
        await ctx.admin.deleteAccount(action(req));
        return reply.code(204).send();
      });

      app.get('/reports/', async (req) => ctx.reports.list(parseBody(reportsQuerySchema, req.query)));
      app.get('/reports/:id/', async (req) => ctx.reports.get(idOf(req)));
      app.post('/reports/:id/resolve/', async (req) =>
        ctx.admin.resolveReport(sessionOf(req).userId, idOf(req), parseBody(reportResolveSchema, req.body)),
      );

      app.get('/audit/', async (req) => {
        const q = parseBody(auditQuerySchema, req.query);
        let userId: number | undefined;
        if (q.user) {
          const found = /^\d{1,10}$/.test(q.user)
            ? Number(q.user)
            : (await ctx.users.findByUsername(q.user))?.id;
          // An unknown person has done nothing: an empty page, not an error.
          if (found === undefined) return { results: [], next: null };
          userId = found;
        }
        return ctx.audit.list({ type: q.type || undefined, userId, before: q.before });
      });
      app.get('/audit/types/', async () => ({ types: await ctx.audit.types() }));

      app.get('/settings/', async () => ctx.siteSettings.get());
      app.put('/settings/', async (req) => {
        const input = parseBody(siteSettingsUpdateSchema, req.body);
        const note = parseBody(adminNoteSchema, { note: (req.body as { note?: unknown }).note }).note;
        return ctx.siteSettings.update(sessionOf(req).userId, { ...input, note });
      });
      app.post('/settings/invites/', async (req, reply) => {
        const input = parseBody(inviteCreateSchema, req.body);
        const made = await ctx.siteSettings.createInvite(sessionOf(req).userId, {
          expires_in_days: input.expires_in_days ?? null,
          max_uses: input.max_uses ?? null,
        });
        return reply.code(201).send(made);
      });
      app.delete('/settings/invites/:id/', async (req, reply) => {
        const { note } = parseBody(adminNoteSchema, req.body ?? {});
        await ctx.siteSettings.revokeInvite(sessionOf(req).userId, idOf(req), note);
        return reply.code(204).send();
      });
    },
    { prefix: '/admin' },
  );
}
