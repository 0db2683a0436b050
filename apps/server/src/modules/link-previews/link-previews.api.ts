import type { ApiSection } from '../../platform/openapi';

// The published description of link previews' routes (link-previews.routes.ts): see src/api-catalog.ts.

export const linkPreviewsApi: ApiSection = {
  tag: 'Files',
  description: '',
  routes: [
    {
      method: 'GET',
      path: '/api/link-previews/:name',
      summary: "A link preview's picture, by the random name a message's preview gives",
      auth: 'none',
      responses: { 200: { contentType: 'image/webp', description: 'The picture' } },
      errors: [404],
    },
  ],
};
