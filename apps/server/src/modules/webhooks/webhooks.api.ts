import {
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookListSchema,
  webhookPostSchema,
} from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of incoming webhooks' routes (webhooks.routes.ts): see src/api-catalog.ts.

export const webhooksApi: ApiSection = {
  tag: 'Webhooks',
  description:
    "Incoming webhooks: a secret URL that posts into a chat as an app. Made by a group's owner and admins, or either person of a private chat.",
  routes: [
    {
      method: 'POST',
      path: '/api/chats/:chatId/webhooks/',
      summary: 'Make a webhook: its URL, holding the secret, shown this once',
      auth: 'token',
      body: webhookCreateSchema,
      responses: { 201: webhookCreatedSchema },
      errors: [429],
    },
    {
      method: 'GET',
      path: '/api/chats/:chatId/webhooks/',
      summary: "A chat's webhooks, without their secrets",
      auth: 'token',
      responses: { 200: webhookListSchema },
    },
    {
      method: 'DELETE',
      path: '/api/chats/:chatId/webhooks/:id/',
      summary: 'Revoke a webhook',
      auth: 'token',
      params: idParams('id'),
      responses: { 204: null },
    },
    {
      method: 'POST',
      path: '/hooks/:secret',
      summary: 'Post into the chat: `{text}` (Slack-compatible) or `{body}`, at most 4096 characters',
      description:
        "JSON, or a form whose `payload` field holds the JSON. Slack's `username` and `icon_url` are accepted and ignored. At most 30 a minute per hook.",
      auth: 'none',
      body: webhookPostSchema,
      alsoAccepts: [
        {
          contentType: 'application/x-www-form-urlencoded',
          schema: { type: 'object', properties: { payload: { type: 'string' } }, required: ['payload'] },
        },
      ],
      responses: { 200: { contentType: 'text/plain', description: '`ok`' } },
      errors: [404, 413, 429],
    },
  ],
};
