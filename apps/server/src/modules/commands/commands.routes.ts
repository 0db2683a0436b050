import {
  botCommandListSchema,
  botCommandSchema,
  chatCommandListSchema,
  commandResultSchema,
  commandRunSchema,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { pathId } from '../../platform/path-ids';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of slash commands: running one in a chat and the chat's list (members, sessions and tokens alike;
// running one is a write), and a bot's commands (its owner, signed in, as the bot's other settings).

type ChatParams = { Params: { chatId: string } };
type BotParams = { Params: { id: string } };

export async function commandsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  const owner = { preHandler: requireAuth(ctx.sessions, { signedIn: true }) };
  const botId = (raw: string) => pathId(raw, 'Bot not found.');

  app.get<ChatParams>(
    '/chats/:chatId/commands/',
    { ...auth, schema: { response: { 200: responseSchema(chatCommandListSchema) } } },
    async (req) => ({ results: await ctx.commands.list(sessionOf(req).userId, req.params.chatId) }),
  );

  app.post<ChatParams>(
    '/chats/:chatId/commands/',
    { ...auth, schema: { response: { 200: responseSchema(commandResultSchema) } } },
    async (req) =>
      ctx.commands.run(sessionOf(req).userId, req.params.chatId, parseBody(commandRunSchema, req.body)),
  );

  app.get<BotParams>(
    '/bots/:id/commands/',
    { ...owner, schema: { response: { 200: responseSchema(botCommandListSchema) } } },
    async (req) => ({
      results: await ctx.botCommands.list(sessionOf(req).userId, botId(req.params.id)),
    }),
  );

  app.post<BotParams>(
    '/bots/:id/commands/',
    { ...owner, schema: { response: { 201: responseSchema(botCommandSchema) } } },
    async (req, reply) =>
      reply
        .code(201)
        .send(await ctx.botCommands.register(sessionOf(req).userId, botId(req.params.id), req.body)),
  );

  app.delete<{ Params: { id: string; command: string } }>(
    '/bots/:id/commands/:command/',
    owner,
    async (req, reply) => {
      await ctx.botCommands.remove(sessionOf(req).userId, botId(req.params.id), req.params.command);
      return reply.code(204).send();
    },
  );
}
