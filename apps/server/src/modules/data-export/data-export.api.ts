import { dataExportListSchema, dataExportSchema } from '@parley/protocol';
import { z } from 'zod';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of data export's routes (data-export.routes.ts): see src/api-catalog.ts.

export const dataExportApi: ApiSection = {
  tag: 'Accounts',
  description: '',
  routes: [
    {
      method: 'POST',
      path: '/api/users/export/',
      summary: 'Ask for a ZIP of your data; a mail says when it is ready',
      auth: 'session',
      responses: { 202: dataExportSchema.extend({ detail: z.string() }) },
      errors: [409, 429],
    },
    {
      method: 'GET',
      path: '/api/users/export/',
      summary: 'Your exports',
      auth: 'session',
      responses: { 200: dataExportListSchema },
    },
    {
      method: 'GET',
      path: '/api/users/export/:id/',
      summary: 'Download an export',
      auth: 'session',
      params: idParams('id'),
      responses: { 200: { contentType: 'application/zip', description: 'The ZIP' } },
    },
  ],
};
