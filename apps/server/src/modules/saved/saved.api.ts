import { savedInChatSchema, savedPageSchema, savedQuerySchema } from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of saved messages' routes (saved.routes.ts): see src/api-catalog.ts.

const params = idParams('messageId');

export const savedApi: ApiSection = {
  tag: 'Messages',
  description: '',
  routes: [
    {
      method: 'GET',
      path: '/api/saved/',
      summary: 'Your saved messages, newest saved first',
      auth: 'token',
      query: savedQuerySchema,
      responses: { 200: savedPageSchema },
    },
    {
      method: 'PUT',
      path: '/api/saved/:messageId/',
      summary: 'Save a message',
      auth: 'token',
      params,
      responses: { 204: null },
    },
    {
      method: 'DELETE',
      path: '/api/saved/:messageId/',
      summary: 'Forget a saved message',
      auth: 'token',
      params,
      responses: { 204: null },
    },
    {
      method: 'GET',
      path: '/api/chats/:chatId/saved/',
      summary: "The ids of a chat's messages you saved",
      auth: 'token',
      responses: { 200: savedInChatSchema },
    },
  ],
};
