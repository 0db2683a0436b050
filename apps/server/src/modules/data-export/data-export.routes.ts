import { dataExportListSchema, dataExportSchema, EXPORT_MSG } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { NotFoundError } from '../../platform/errors';
import { responseSchema } from '../../platform/response-schema';

const exportIdSchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/) });

// HTTP shape of "Export my data": ask for one, list one's own, download one with the session.
export async function dataExportRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions, { signedIn: true });

  app.post(
    '/users/export/',
    {
      preHandler: auth,
      schema: { response: { 202: responseSchema(dataExportSchema.extend({ detail: z.string() })) } },
    },
    async (req, reply) => {
      const created = await ctx.dataExports.request(sessionOf(req).userId, req.id);
      return reply.code(202).send({ ...created, detail: EXPORT_MSG.started });
    },
  );

  app.get(
    '/users/export/',
    { preHandler: auth, schema: { response: { 200: responseSchema(dataExportListSchema) } } },
    async (req) => ({ results: await ctx.dataExports.list(sessionOf(req).userId) }),
  );

  app.get('/users/export/:id/', { preHandler: auth }, async (req, reply) => {
    const parsed = exportIdSchema.safeParse(req.params);
    if (!parsed.success) throw new NotFoundError();
    const file = await ctx.dataExports.open(sessionOf(req).userId, parsed.data.id);
    return reply
      .header('content-type', 'application/zip')
      .header('content-length', String(file.size))
      .header('content-disposition', 'attachment; filename="parley-export.zip"')
      .header('cache-control', 'private, no-store')
      .send(file.stream);
  });
}
