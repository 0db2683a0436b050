import { messageSchema, messagesQuerySchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of messages (SPEC §7). Sending is on the room socket (realtime/socket.routes.ts).

/** The history page is the hottest read: serialised from the contract's schema by fast-json-stringify. */
const historyPage = { response: { 200: responseSchema(z.array(messageSchema)) } };

export async function messagesRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };

  app.get<{ Params: { chatId: string } }>(
    '/chats/:chatId/messages/',
    { ...auth, schema: historyPage },
    async (req) =>
      ctx.messages.history(
        sessionOf(req).userId,
        req.params.chatId,
        parseBody(messagesQuerySchema, req.query),
      ),
  );
}
