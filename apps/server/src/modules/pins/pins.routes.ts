import { MESSAGE_TEXT, pinnedMessagesSchema, pinsStateSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { pathId } from '../../platform/path-ids';
import { responseSchema } from '../../platform/response-schema';

// HTTP shape of pins: a chat's pinned messages, and PUT / DELETE to pin and unpin one (each idempotent).

type PinParams = { Params: { chatId: string; messageId: string } };

export async function pinsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  const pinsState = { ...auth, schema: { response: { 200: responseSchema(pinsStateSchema) } } };

  app.get<{ Params: { chatId: string } }>(
    '/chats/:chatId/pins/',
    { ...auth, schema: { response: { 200: responseSchema(pinnedMessagesSchema) } } },
    async (req) => ctx.pins.list(sessionOf(req).userId, req.params.chatId),
  );

  app.put<PinParams>('/chats/:chatId/pins/:messageId/', pinsState, async (req) =>
    ctx.pins.pin(
      sessionOf(req).userId,
      req.params.chatId,
      pathId(req.params.messageId, MESSAGE_TEXT.notFound),
    ),
  );

  app.delete<PinParams>('/chats/:chatId/pins/:messageId/', pinsState, async (req) =>
    ctx.pins.unpin(
      sessionOf(req).userId,
      req.params.chatId,
      pathId(req.params.messageId, MESSAGE_TEXT.notFound),
    ),
  );
}
