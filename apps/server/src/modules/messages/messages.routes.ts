import {
  forwardRequestSchema,
  httpMessageSchema,
  isSingleEmoji,
  MESSAGE_TEXT,
  messageEditSchema,
  messageSchema,
  messagesQuerySchema,
  SOCKET_ERRORS,
  threadPageSchema,
  threadQuerySchema,
  threadsQuerySchema,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { BadRequestError, NotFoundError, TooManyRequestsError } from '../../platform/errors';
import { enforceLimit, MESSAGE_WINDOW_MS, messageLimitKey } from '../../platform/rate-limit-policy';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of messages (SPEC §7). People send on the room socket (realtime/socket.routes.ts); scripts and
// bots may POST a message here.

/** The history page is the hottest read: serialised from the contract's schema by fast-json-stringify. */
const historyPage = { response: { 200: responseSchema(z.array(messageSchema)) } };
const sentMessage = responseSchema(messageSchema);
/** A thread's page, opened by everyone who opens the thread: serialised the same way. */
const threadPage = { response: { 200: responseSchema(threadPageSchema) } };

type MessageParams = { Params: { chatId: string; messageId: string } };
type ReactionParams = { Params: { chatId: string; messageId: string; emoji: string } };

/** A message id from the path; anything else names no message. */
const messageIdOf = (raw: string): number => {
  const id = Number(raw);
  if (!/^\d{1,10}$/.test(raw) || id < 1 || id > 2_147_483_647) throw new NotFoundError(MESSAGE_TEXT.notFound);
  return id;
};

/** The emoji of a reaction path (Fastify has decoded it): exactly one emoji grapheme. */
const emojiOf = (raw: string): string => {
  if (!isSingleEmoji(raw)) throw new BadRequestError(MESSAGE_TEXT.badEmoji);
  return raw;
};

export async function messagesRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  const changes = ctx.messages.changes;

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

  // Sending over HTTP (scripts, bots, write tokens): a chat_message frame's rules, limit and fan-out; 201 with
  // the stored message, or 200 with it for a client_id already stored.
  app.post<{ Params: { chatId: string } }>(
    '/chats/:chatId/messages/',
    { ...auth, schema: { response: { 200: sentMessage, 201: sentMessage } } },
    async (req, reply) => {
      const userId = sessionOf(req).userId;
      const input = parseBody(httpMessageSchema, req.body);
      const limit = await ctx.messageLimiter.hit(
        messageLimitKey(userId),
        ctx.config.messageRateLimit,
        MESSAGE_WINDOW_MS,
      );
      if (!limit.allowed) {
        ctx.metrics?.rateLimitRefused('http');
        throw new TooManyRequestsError(limit.retryAfterSeconds, SOCKET_ERRORS.rateLimited);
      }
      const { message, created } = await ctx.messages.send(userId, req.params.chatId, input, req.id);
      return reply.code(created ? 201 : 200).send(message);
    },
  );

  app.patch<MessageParams>('/chats/:chatId/messages/:messageId/', auth, async (req) =>
    changes.edit(
      sessionOf(req).userId,
      req.params.chatId,
      messageIdOf(req.params.messageId),
      parseBody(messageEditSchema, req.body).body,
    ),
  );

  app.delete<MessageParams>('/chats/:chatId/messages/:messageId/', auth, async (req, reply) => {
    await changes.delete(sessionOf(req).userId, req.params.chatId, messageIdOf(req.params.messageId));
    return reply.code(204).send();
  });

  app.delete<MessageParams>('/chats/:chatId/messages/:messageId/preview/', auth, async (req, reply) => {
    await ctx.messages.linkPreviews.remove(
      sessionOf(req).userId,
      req.params.chatId,
      messageIdOf(req.params.messageId),
    );
    return reply.code(204).send();
  });

  // Each copy is a message sent: 60 forwards an hour per person keeps it from being a way around the socket's
  // rate limit.
  const forwardLimit = async (req: { session: { userId: number } | null }) =>
    enforceLimit(ctx.limiter, `forward:${req.session?.userId}`, 60, 60 * 60_000);
  app.post<MessageParams>(
    '/chats/:chatId/messages/:messageId/forward/',
    { preHandler: [auth.preHandler, forwardLimit] },
    async (req) =>
      ctx.messages.forwarding.forward(
        sessionOf(req).userId,
        req.params.chatId,
        messageIdOf(req.params.messageId),
        parseBody(forwardRequestSchema, req.body).to_chat_ids,
      ),
  );

  // The person a private chat's voice message was sent to played it (idempotent).
  app.put<MessageParams>('/chats/:chatId/messages/:messageId/played/', auth, async (req, reply) => {
    await ctx.messages.voicePlayed.mark(
      sessionOf(req).userId,
      req.params.chatId,
      messageIdOf(req.params.messageId),
    );
    return reply.code(204).send();
  });

  app.get<MessageParams>('/chats/:chatId/messages/:messageId/edits/', auth, async (req) =>
    changes.edits(sessionOf(req).userId, req.params.chatId, messageIdOf(req.params.messageId)),
  );

  app.get<MessageParams>(
    '/chats/:chatId/messages/:messageId/thread/',
    { ...auth, schema: threadPage },
    async (req) =>
      ctx.messages.threads.page(
        sessionOf(req).userId,
        req.params.chatId,
        messageIdOf(req.params.messageId),
        parseBody(threadQuerySchema, req.query),
      ),
  );

  // PUT follows a thread (its replies notify), DELETE stops.
  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route<MessageParams>({
      method,
      url: '/chats/:chatId/messages/:messageId/follow/',
      ...auth,
      handler: async (req, reply) => {
        await ctx.messages.threads.follow(
          sessionOf(req).userId,
          req.params.chatId,
          messageIdOf(req.params.messageId),
          on,
        );
        return reply.code(204).send();
      },
    });
  }

  app.get('/threads/', auth, async (req) =>
    ctx.messages.threads.followed(sessionOf(req).userId, parseBody(threadsQuerySchema, req.query).cursor),
  );

  // PUT adds one's reaction, DELETE takes it back; either answers the message's reactions as they stand.
  for (const [method, on] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route<ReactionParams>({
      method,
      url: '/chats/:chatId/messages/:messageId/reactions/:emoji/',
      ...auth,
      handler: async (req) =>
        changes.react(
          sessionOf(req).userId,
          req.params.chatId,
          messageIdOf(req.params.messageId),
          emojiOf(req.params.emoji),
          on,
        ),
    });
  }
}
