import { groupCreateSchema, messagesQuerySchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { parseBody } from '../../platform/validate';

// HTTP shape of chats (SPEC §7). Every call is per-object authorized in the service: non-members get 404.

const nullable = (type: string) => ({ type: [type, 'null'] });

/**
 * The history page as JSON Schema, so Fastify serialises it with fast-json-stringify rather than JSON.stringify
 * (the page is the hottest read). Properties in the order toMessage and AttachmentsService.view build them,
 * none required: the output is byte for byte what JSON.stringify gave. A field added to Message must be added
 * here too, or it is left out of the page.
 */
const messagePageJson = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      id: { type: 'integer' },
      sender: nullable('integer'),
      sender_name: { type: 'string' },
      sender_username: { type: 'string' },
      sender_avatar: nullable('string'),
      body: { type: 'string' },
      files: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            id: { type: 'integer' },
            type: { type: 'string' },
            file: { type: 'string' },
            name: { type: 'string' },
            size: { type: 'integer' },
            thumbnail: nullable('string'),
          },
        },
      },
      is_read: { type: 'boolean' },
      is_delivered: { type: 'boolean' },
      is_sent: { type: 'boolean' },
      is_error: { type: 'boolean' },
      kind: { type: 'string' },
      timestamp: { type: 'string' },
      chatroom: { type: 'string' },
      client_id: nullable('string'),
    },
  },
} as const;

export async function chatsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  type ChatParams = { Params: { chatId: string } };

  app.get('/chats/my/', auth, async (req) => ({ chats: await ctx.chats.listChats(sessionOf(req).userId) }));

  app.get<{ Params: { target: string } }>('/chats/start/:target/', auth, async (req) =>
    ctx.chats.startPrivate(sessionOf(req).userId, req.params.target),
  );

  app.post('/chats/group/new/', auth, async (req) =>
    ctx.chats.createGroup(sessionOf(req).userId, parseBody(groupCreateSchema, req.body).group_name),
  );

  app.get<ChatParams>('/chats/:chatId/', auth, async (req) =>
    ctx.chats.detail(sessionOf(req).userId, req.params.chatId),
  );

  app.get<ChatParams>(
    '/chats/:chatId/messages/',
    { ...auth, schema: { response: { 200: messagePageJson } } },
    async (req) =>
      ctx.chats.messages(sessionOf(req).userId, req.params.chatId, parseBody(messagesQuerySchema, req.query)),
  );
}
