import {
  botCreateSchema,
  botCredentialsSchema,
  botDeliveryListSchema,
  botEventSchema,
  botListSchema,
  botSchema,
  botUpdateSchema,
  messageSchema,
} from '@parley/protocol';
import { type ApiSection, idParams } from '../../platform/openapi';

// The published description of bots' routes (bots.routes.ts): see src/api-catalog.ts.

const params = idParams('id');

export const botsApi: ApiSection = {
  tag: 'Bots',
  description:
    "A person's bots: each a user with `is_bot`, a read+write token and a signing secret. With an `events_url`, each message of the bot's chats is POSTed there as `{type: 'message', message, chat_id}`, signed: `X-Parley-Signature: v1=<hex HMAC-SHA256 of \"{X-Parley-Timestamp}.{raw body}\">` with the signing secret.",
  outgoing: [
    {
      name: 'botEvent',
      summary: "A message in one of the bot's chats, POSTed to its events_url",
      description:
        'Tried three times more within a minute when the answer is not a 2xx or does not come; never holds up delivery to people.',
      body: botEventSchema.extend({ message: messageSchema }),
    },
  ],
  routes: [
    {
      method: 'POST',
      path: '/api/bots/',
      summary: 'Make a bot: the bot, its token and its signing secret, shown this once',
      auth: 'session',
      body: botCreateSchema,
      responses: { 201: botCredentialsSchema },
      errors: [409, 429],
    },
    {
      method: 'GET',
      path: '/api/bots/',
      summary: 'Your bots',
      auth: 'session',
      responses: { 200: botListSchema },
    },
    {
      method: 'PATCH',
      path: '/api/bots/:id/',
      summary: "Change a bot's name, description, events URL or openness",
      auth: 'session',
      params,
      body: botUpdateSchema,
      responses: { 200: botSchema },
    },
    {
      method: 'DELETE',
      path: '/api/bots/:id/',
      summary: 'Delete a bot',
      auth: 'session',
      params,
      responses: { 204: null },
    },
    {
      method: 'POST',
      path: '/api/bots/:id/tokens/',
      summary: 'Rotate: a new token and signing secret, the old ones dead',
      auth: 'session',
      params,
      responses: { 200: botCredentialsSchema },
      errors: [429],
    },
    {
      method: 'GET',
      path: '/api/bots/:id/deliveries/',
      summary: "The last 50 attempts to deliver the bot's events, and how each went",
      auth: 'token',
      params,
      responses: { 200: botDeliveryListSchema },
    },
  ],
};
