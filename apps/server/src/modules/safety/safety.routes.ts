import { blockedListSchema, blockStateSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireAuth, sessionOf } from '../../platform/auth';
import { responseSchema } from '../../platform/response-schema';

// HTTP shape of blocking. Muting a chat is the chats module's (chats.routes.ts), reporting the
// reports module's (reports.routes.ts).
export async function safetyRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = { preHandler: requireAuth(ctx.sessions) };
  const state = { ...auth, schema: { response: { 200: responseSchema(blockStateSchema) } } };
  type Target = { Params: { username: string } };

  // Registered before /users/:username/block/ could be read as a username 'blocked'.
  app.get(
    '/users/blocked/',
    { ...auth, schema: { response: { 200: responseSchema(blockedListSchema) } } },
    async (req) => ({ results: await ctx.blocks.list(sessionOf(req).userId) }),
  );

  app.post<Target>('/users/:username/block/', state, async (req) =>
    ctx.blocks.block(sessionOf(req).userId, req.params.username),
  );

  app.delete<Target>('/users/:username/block/', state, async (req) =>
    ctx.blocks.unblock(sessionOf(req).userId, req.params.username),
  );
}
