import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';

// A link preview's picture: a thumbnail Parley made, at an address of 128 random bits that only the people shown
// the preview learn (an <img> sends no bearer token). It never changes, so it may be kept for good.
export async function linkPreviewsRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Params: { name: string } }>('/link-previews/:name', async (req, reply) => {
    const file = await ctx.linkPreviews.image(req.params.name);
    if (!file) return reply.code(404).send({ detail: 'Not found.' });
    return reply
      .header('content-type', 'image/webp')
      .header('content-length', String(file.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "sandbox; default-src 'none'")
      .header('cross-origin-resource-policy', 'same-origin')
      .header('cache-control', 'private, max-age=31536000, immutable')
      .send(file.stream);
  });
}
