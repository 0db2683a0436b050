import { pinnedMessagesSchema, pinsStateSchema } from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of pins' routes (pins.routes.ts): see src/api-catalog.ts.

const params = idParams('messageId');

export const pinsApi: ApiSection = {
  tag: 'Messages',
  description: '',
  routes: [
    {
      method: 'GET',
      path: '/api/chats/:chatId/pins/',
      summary: "A chat's pinned messages",
      auth: 'token',
      responses: { 200: pinnedMessagesSchema },
    },
    {
      method: 'PUT',
      path: '/api/chats/:chatId/pins/:messageId/',
      summary: "Pin a message (anyone in a private chat; a group's owner and admins), 50 a chat at most",
      auth: 'token',
      params,
      responses: { 200: pinsStateSchema },
      errors: [400, 409],
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/pins/:messageId/',
      summary: 'Unpin a message',
      auth: 'token',
      params,
      responses: { 200: pinsStateSchema },
    },
  ],
};
