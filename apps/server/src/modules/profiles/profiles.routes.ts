import { profileUpdateSchema } from '@parley/protocol';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { bearerToken, requireAuth, sessionOf } from '../../platform/auth';
import { AVATAR_CONTENT_TYPE } from '../../platform/avatars';
import { readPictureForm } from '../../platform/picture-form';
import { enforceLimit } from '../../platform/rate-limit-policy';
import { parseBody } from '../../platform/validate';
import { assertRequiredFields } from './profile-form';

// HTTP shape of profiles (SPEC §7, DESIGN §1): the home list and statistics, public profiles and the
// profile update. Avatars are served outside /api by avatarMediaRoutes.
export async function profilesRoutes(app: FastifyInstance, ctx: AppContext) {
  const auth = requireAuth(ctx.sessions);

  app.get('/profiles', async () => ctx.profiles.list());

  app.get('/stats', async () => ctx.profiles.stats());

  app.get<{ Params: { username: string } }>('/users/@:username/', async (req) => {
    // Public, but a signed-in owner may still see their own hidden profile.
    const viewer = await ctx.sessions.verify(bearerToken(req));
    return ctx.profiles.publicProfile(req.params.username, viewer?.userId ?? null);
  });

  app.route({
    method: ['PUT', 'POST'],
    url: '/users/profile/update/',
    preHandler: auth,
    handler: async (req) => {
      const userId = sessionOf(req).userId;
      await enforceLimit(ctx.limiter, `profile-update:${userId}`, 60, 60 * 60_000);
      const form = await readPictureForm(req);
      assertRequiredFields(form.fields);
      return ctx.profiles.update(userId, parseBody(profileUpdateSchema, form.fields), form.image);
    },
  });
}

/** GET /media/avatars/:name (people's and groups'): random names, so cached for a year; nosniff and a sandbox so bytes stay an image. */
export async function avatarMediaRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { name: string } }>('/media/avatars/:name', async (req, reply) => {
    const bytes = await ctx.avatars.read(req.params.name);
    if (!bytes) return reply.code(404).send({ detail: 'Not found.' });
    return reply
      .header('content-type', AVATAR_CONTENT_TYPE)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(bytes);
  });
}
