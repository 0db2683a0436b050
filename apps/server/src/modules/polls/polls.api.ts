import { pollSchema, pollVoteSchema } from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of polls' routes (polls.routes.ts): see src/api-catalog.ts.

const params = idParams('messageId');

export const pollsApi: ApiSection = {
  tag: 'Messages',
  description: '',
  routes: [
    {
      method: 'PUT',
      path: '/api/chats/:chatId/messages/:messageId/votes/',
      summary: "Vote in a message's poll (replaces your earlier votes)",
      auth: 'token',
      params,
      body: pollVoteSchema,
      responses: { 200: pollSchema },
      errors: [409],
    },
    {
      method: 'POST',
      path: '/api/chats/:chatId/messages/:messageId/close/',
      summary: 'Close a poll (its author)',
      auth: 'token',
      params,
      responses: { 200: pollSchema },
      errors: [409],
    },
  ],
};
