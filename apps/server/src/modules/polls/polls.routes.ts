import { POLL_TEXT, pollSchema, pollVoteSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { pathId } from '../../platform/path-ids';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of polls: a member's vote (PUT, their choices as they now stand) and the author's close (POST). A
// poll is sent as a chat_message frame on the room socket, like any message.

type PollParams = { Params: { chatId: string; messageId: string } };

export async function pollsRoutes(app: FastifyInstance, ctx: AppContext) {
  const answersPoll = {
    preHandler: requireAuth(ctx.sessions),
    schema: { response: { 200: responseSchema(pollSchema) } },
  };

  app.put<PollParams>('/chats/:chatId/messages/:messageId/votes/', answersPoll, async (req) =>
    ctx.polls.vote(
      sessionOf(req).userId,
      req.params.chatId,
      pathId(req.params.messageId, POLL_TEXT.notFound),
      parseBody(pollVoteSchema, req.body).options,
    ),
  );

  app.post<PollParams>('/chats/:chatId/messages/:messageId/close/', answersPoll, async (req) =>
    ctx.polls.close(
      sessionOf(req).userId,
      req.params.chatId,
      pathId(req.params.messageId, POLL_TEXT.notFound),
    ),
  );
}
