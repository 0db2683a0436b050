import { groupCreateSchema, muteSchema, muteStateSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// HTTP shape of chats (SPEC §7). Every call is per-object authorized in the service: non-members get 404.

export async function chatsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  type ChatParams = { Params: { chatId: string } };

  app.get('/chats/my/', auth, async (req) => ({ chats: await ctx.chats.listChats(sessionOf(req).userId) }));

  app.get<{ Params: { target: string } }>('/chats/start/:target/', auth, async (req) =>
    ctx.chats.startPrivate(sessionOf(req).userId, req.params.target),
  );

  app.post('/chats/group/new/', auth, async (req) => {
    const { group_name, ...group } = parseBody(groupCreateSchema, req.body);
    return ctx.chats.createGroup(sessionOf(req).userId, group_name, group);
  });

  app.get<ChatParams>('/chats/:chatId/', auth, async (req) =>
    ctx.chats.detailForReader(sessionOf(req).userId, req.params.chatId),
  );

  // Muting a chat: until a time to come, or always (until: null).
  const muteState = { ...auth, schema: { response: { 200: responseSchema(muteStateSchema) } } };
  app.put<ChatParams>('/chats/:chatId/mute/', muteState, async (req) =>
    ctx.chats.mute(sessionOf(req).userId, req.params.chatId, parseBody(muteSchema, req.body).until),
  );
  app.delete<ChatParams>('/chats/:chatId/mute/', muteState, async (req) =>
    ctx.chats.unmute(sessionOf(req).userId, req.params.chatId),
  );
}
