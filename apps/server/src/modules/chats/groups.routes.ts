import {
  channelDirectorySchema,
  channelsQuerySchema,
  groupUpdateSchema,
  memberAddSchema,
  memberRoleChangeSchema,
  ownershipTransferSchema,
} from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { readPictureForm } from '../../platform/picture-form';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';
import { GROUP_AVATAR_TOO_LARGE } from './groups.service';

// Group management, roles, the channel directory and joining, and "clear conversation for me". The services
// check rights per call; a private group answers 404 to anyone outside it.
export async function groupsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  type ChatParams = { Params: { chatId: string } };

  app.patch<ChatParams>('/chats/:chatId/', auth, async (req) => {
    const userId = sessionOf(req).userId;
    const { fields, image } = await readPictureForm(req, GROUP_AVATAR_TOO_LARGE);
    const body = parseBody(groupUpdateSchema, { ...fields, group_name: fields.group_name ?? fields.name });
    await ctx.groups.update(userId, req.params.chatId, body, image);
    return ctx.chats.detail(userId, req.params.chatId);
  });

  app.post<ChatParams>('/chats/:chatId/members/', auth, async (req) => {
    const body = parseBody(memberAddSchema, req.body);
    return ctx.groups.addMembers(sessionOf(req).userId, req.params.chatId, body.members);
  });

  app.delete<{ Params: { chatId: string; userId: string } }>(
    '/chats/:chatId/members/:userId/',
    auth,
    async (req) =>
      ctx.groups.removeMember(sessionOf(req).userId, req.params.chatId, Number(req.params.userId)),
  );

  app.patch<{ Params: { chatId: string; userId: string } }>(
    '/chats/:chatId/members/:userId/',
    auth,
    async (req) =>
      ctx.groups.roles.setRole(
        sessionOf(req).userId,
        req.params.chatId,
        Number(req.params.userId),
        parseBody(memberRoleChangeSchema, req.body).role,
      ),
  );

  app.post<ChatParams>('/chats/:chatId/transfer/', auth, async (req) =>
    ctx.groups.roles.transfer(
      sessionOf(req).userId,
      req.params.chatId,
      parseBody(ownershipTransferSchema, req.body).user_id,
    ),
  );

  app.get(
    '/channels/',
    { ...auth, schema: { response: { 200: responseSchema(channelDirectorySchema) } } },
    async (req) =>
      ctx.groups.channels.directory(sessionOf(req).userId, parseBody(channelsQuerySchema, req.query)),
  );

  app.post<ChatParams>('/chats/:chatId/join/', auth, async (req) =>
    ctx.groups.channels.join(sessionOf(req).userId, req.params.chatId),
  );

  app.post<ChatParams>('/chats/:chatId/leave/', auth, async (req, reply) => {
    await ctx.groups.leave(sessionOf(req).userId, req.params.chatId);
    return reply.code(204).send();
  });

  app.delete<ChatParams>('/chats/:chatId/', auth, async (req, reply) => {
    await ctx.groups.deleteGroup(sessionOf(req).userId, req.params.chatId);
    return reply.code(204).send();
  });

  app.post<ChatParams>('/chats/:chatId/clear/', auth, async (req, reply) => {
    await ctx.chats.clearForMe(sessionOf(req).userId, req.params.chatId);
    return reply.code(204).send();
  });
}
