import { reportCreatedSchema, reportCreateSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of reporting. Operators read and resolve reports through the admin API, which calls
// ReportsService (reports.service.ts).
export async function reportsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post(
    '/reports/',
    {
      preHandler: requireAuth(ctx.sessions),
      schema: { response: { 200: responseSchema(reportCreatedSchema) } },
    },
    async (req) => ctx.reports.create(sessionOf(req).userId, parseBody(reportCreateSchema, req.body)),
  );
}
