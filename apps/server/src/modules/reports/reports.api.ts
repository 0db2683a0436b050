import { reportCreatedSchema, reportCreateSchema } from '@parley/protocol';
import type { ApiSection } from '../../platform/openapi';

// The published description of reports' routes (reports.routes.ts; the admin API reads them): see
// src/api-catalog.ts.

export const reportsApi: ApiSection = {
  tag: 'Safety',
  description: '',
  routes: [
    {
      method: 'POST',
      path: '/api/reports/',
      summary: 'Report a message or a person to the site admins',
      auth: 'token',
      body: reportCreateSchema,
      responses: { 200: reportCreatedSchema },
      errors: [404, 429],
    },
  ],
};
