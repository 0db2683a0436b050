import { MESSAGE_TEXT, savedInChatSchema, savedPageSchema, savedQuerySchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { pathId } from '../../platform/path-ids';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of saved messages: the person's list, PUT / DELETE to save and unsave one (each idempotent), and
// which of a chat's messages they saved.

type SavedParams = { Params: { messageId: string } };

export async function savedRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };

  app.get(
    '/saved/',
    { ...auth, schema: { response: { 200: responseSchema(savedPageSchema) } } },
    async (req) => ctx.saved.list(sessionOf(req).userId, parseBody(savedQuerySchema, req.query).cursor),
  );

  app.put<SavedParams>('/saved/:messageId/', auth, async (req, reply) => {
    await ctx.saved.save(sessionOf(req).userId, pathId(req.params.messageId, MESSAGE_TEXT.notFound));
    return reply.code(204).send();
  });

  app.delete<SavedParams>('/saved/:messageId/', auth, async (req, reply) => {
    await ctx.saved.unsave(sessionOf(req).userId, pathId(req.params.messageId, MESSAGE_TEXT.notFound));
    return reply.code(204).send();
  });

  app.get<{ Params: { chatId: string } }>(
    '/chats/:chatId/saved/',
    { ...auth, schema: { response: { 200: responseSchema(savedInChatSchema) } } },
    async (req) => ctx.saved.savedIn(sessionOf(req).userId, req.params.chatId),
  );
}
