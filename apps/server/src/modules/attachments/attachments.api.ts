import { chatFileSchema } from '@parley/protocol';
import { z } from 'zod';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of attachments' routes (attachments.routes.ts): see src/api-catalog.ts.

export const attachmentsApi: ApiSection = {
  tag: 'Files',
  description: 'Uploading files to a chat, and reading them back by their signed, expiring URLs.',
  routes: [
    {
      method: 'POST',
      path: '/api/chats/:chatId/attachments/',
      summary: 'Upload up to 10 files (25 MB each) to attach to your next message',
      description:
        "multipart/form-data: the files, and for a voice message the fields `kind`, `duration_ms` and `waveform` before them. The answer's file ids go in the message's `attachments`.",
      auth: 'token',
      body: {
        contentType: 'multipart/form-data',
        schema: {
          type: 'object',
          properties: { file: { type: 'array', items: { type: 'string', format: 'binary' } } },
        },
      },
      responses: { 200: z.object({ files: z.array(chatFileSchema) }) },
      errors: [400, 413, 415, 507],
    },
    {
      method: 'GET',
      path: '/api/files/:id/:name',
      summary: "A file's bytes (or `thumb`, its thumbnail), by the signed URL a message gives",
      auth: 'none',
      params: idParams('id'),
      query: z.object({ exp: z.string(), sig: z.string() }),
      responses: {
        200: { contentType: 'application/octet-stream', description: 'The file' },
        206: { contentType: 'application/octet-stream', description: 'The range asked for' },
      },
      errors: [416],
    },
  ],
};
