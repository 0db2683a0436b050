import { GROUP_AVATAR_MAX_BYTES, groupUpdateSchema, memberAddSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { PayloadTooLargeError } from '../../platform/errors';
import { randomFileName } from '../../platform/storage';
import { parseBody } from '../../platform/validate';
import { AVATAR_EXTENSION, toAvatar } from '../profiles/avatar-image';
import { readProfileForm } from '../profiles/profile-form';

const GROUP_AVATAR_TOO_LARGE = 'Group picture must be at most 2MB.';

// Group management (issue 5) and "clear conversation for me". The service checks admin rights per call.
export async function groupsRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  type ChatParams = { Params: { chatId: string } };

  app.patch<ChatParams>('/chats/:chatId/', auth, async (req) => {
    const userId = sessionOf(req).userId;
    // The form reader's own size refusal speaks of profile pictures (10MB); a group picture's limit is 2MB.
    const { fields, image } = await readProfileForm(req).catch((err) => {
      throw err instanceof PayloadTooLargeError ? new PayloadTooLargeError(GROUP_AVATAR_TOO_LARGE) : err;
    });
    const body = parseBody(groupUpdateSchema, { ...fields, group_name: fields.group_name ?? fields.name });
    if (image && image.length > GROUP_AVATAR_MAX_BYTES)
      throw new PayloadTooLargeError(GROUP_AVATAR_TOO_LARGE);
    // Check rights before touching any file, then store the re-encoded picture under a fresh random name.
    await ctx.groups.assertAdmin(userId, req.params.chatId);
    let avatar: string | undefined;
    if (image) {
      const bytes = await toAvatar(image);
      avatar = randomFileName(AVATAR_EXTENSION);
      await ctx.storage.put(`avatars/${avatar}`, bytes);
    }
    const { previousAvatar } = await ctx.groups.update(userId, req.params.chatId, {
      name: body.group_name,
      description: body.description,
      avatar,
    });
    if (previousAvatar) await ctx.storage.delete(`avatars/${previousAvatar}`);
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
