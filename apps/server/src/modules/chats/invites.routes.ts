import {
  groupInviteCreateSchema,
  groupInviteListSchema,
  groupInvitePreviewSchema,
  groupInviteSchema,
} from '@parley/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';
import { parseBody } from '../../platform/validate';

// Group invite links: a group's links (made, listed, revoked by its admins), and a code's preview and join for
// anyone signed in. The service decides who may; a private group's links are 404 to outsiders.
export async function invitesRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  type ChatParams = { Params: { chatId: string } };
  type CodeParams = { Params: { code: string } };
  /** Where a link points: PUBLIC_URL, else the origin the request came to. */
  const origin = (req: FastifyRequest) => ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;

  app.post<ChatParams>(
    '/chats/:chatId/invites/',
    { ...auth, schema: { response: { 200: responseSchema(groupInviteSchema) } } },
    async (req) =>
      ctx.groupInvites.create(
        sessionOf(req).userId,
        req.params.chatId,
        parseBody(groupInviteCreateSchema, req.body ?? {}),
        origin(req),
      ),
  );

  app.get<ChatParams>(
    '/chats/:chatId/invites/',
    { ...auth, schema: { response: { 200: responseSchema(groupInviteListSchema) } } },
    async (req) => ({
      results: await ctx.groupInvites.list(sessionOf(req).userId, req.params.chatId, origin(req)),
    }),
  );

  app.delete<{ Params: { chatId: string; code: string } }>(
    '/chats/:chatId/invites/:code/',
    auth,
    async (req, reply) => {
      await ctx.groupInvites.revoke(sessionOf(req).userId, req.params.chatId, req.params.code);
      return reply.code(204).send();
    },
  );

  app.get<CodeParams>(
    '/invites/:code/',
    { ...auth, schema: { response: { 200: responseSchema(groupInvitePreviewSchema) } } },
    async (req) => ctx.groupInvites.preview(sessionOf(req).userId, req.params.code),
  );

  app.post<CodeParams>('/invites/:code/accept/', auth, async (req) =>
    ctx.groupInvites.accept(sessionOf(req).userId, req.params.code),
  );
}
